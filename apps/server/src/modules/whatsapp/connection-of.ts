import type { Executor } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { WhatsappRepository } from './whatsapp.repository.js';

/**
 * The connection a tool acts on: the one named (ERR_NO_WAPP_FOUND when it does not exist), or the default one
 * (ERR_NO_DEF_WAPP_FOUND when there is none).
 */
export async function connectionOf(db: Executor, whatsappId: number | undefined): Promise<number> {
  const repo = new WhatsappRepository(db);
  if (whatsappId === undefined) {
    const id = await repo.findDefaultId();
    if (id === null) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'There is no default connection: choose one.');
    return id;
  }
  if (!(await repo.findDto(whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND', 'Connection not found.');
  return whatsappId;
}
