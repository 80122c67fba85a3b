import {
  isAdmin,
  PAGE_SIZE,
  type ColleagueDto,
  type ColleagueListResponse,
  type UserCreateInput,
  type UserUpdateInput,
  type UserDto,
  type UserListResponse,
} from '@wadesk/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import { hashPassword } from '../auth/password.js';
import { RefreshTokensRepository } from '../auth/refresh-tokens.repository.js';
import { UsersRepository, type UserWrite } from './users.repository.js';

/** The limit of open tickets is optional in code (sign-up, bootstrap): 0, no limit. */
export type CreateData = Omit<z.output<typeof UserCreateInput>, 'maxOpenTickets'> & { maxOpenTickets?: number };
export type UpdateData = z.output<typeof UserUpdateInput>;

export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  private repo(): UsersRepository {
    return new UsersRepository(this.db);
  }

  /** A page of users: for admins every field; for anyone else colleagues found by name (no e-mail, no profile). */
  async list(actor: AuthUser, searchParam: string, pageNumber: number): Promise<UserListResponse | ColleagueListResponse> {
    if (!isAdmin(actor)) {
      const { users, hasMore } = await this.repo().listColleaguesPage(searchParam, pageNumber, PAGE_SIZE.users);
      return { users, hasMore };
    }
    const { users, count } = await this.repo().list(searchParam, pageNumber, PAGE_SIZE.users);
    return { users, count, hasMore: count > pageNumber * PAGE_SIZE.users };
  }

  /** Every colleague (id, name, queues), for any signed-in user: whom a ticket can be transferred to. */
  async listColleagues(): Promise<ColleagueDto[]> {
    return this.repo().listColleagues();
  }

  async queueIdsOf(userId: number): Promise<number[]> {
    return this.repo().queueIdsOf(userId);
  }

  async get(actor: AuthUser, id: number): Promise<UserDto> {
    if (!isAdmin(actor) && actor.id !== id) throw new AppError('ERR_NO_PERMISSION');
    const user = await this.repo().findDto(id);
    if (!user) throw new AppError('ERR_NO_USER_FOUND');
    return user;
  }

  /** Creates a user (admin form, or sign-up with profile 'user'). */
  async create(data: CreateData | (Omit<CreateData, 'queueIds'> & { queueIds?: number[] })): Promise<UserDto> {
    const repo = this.repo();
    if (await repo.emailTaken(data.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
    const passwordHash = await hashPassword(data.password);
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        const txRepo = new UsersRepository(tx);
        const newId = await txRepo.insert({
          name: data.name,
          email: data.email,
          passwordHash,
          profile: data.profile,
          whatsappId: data.whatsappId ?? null,
          maxOpenTickets: data.maxOpenTickets ?? 0,
        });
        await txRepo.setQueues(newId, data.queueIds ?? []);
        await audit.record(tx, { action: 'user.create', targetType: 'user', targetId: newId, after: await txRepo.findDto(newId) });
        return newId;
      });
    } catch (err) {
      throw this.translateWriteError(err);
    }
    const user = (await repo.findDto(id))!;
    this.events.emit('user.saved', { user, created: true });
    return user;
  }

  async update(actor: AuthUser, id: number, data: UpdateData): Promise<UserDto> {
    const repo = this.repo();
    const current = await repo.findDto(id);
    if (!current) throw new AppError('ERR_NO_USER_FOUND');
    const admin = isAdmin(actor);
    if (!admin) {
      if (actor.id !== id) throw new AppError('ERR_NO_PERMISSION');
      const changesProfile = data.profile !== undefined && data.profile !== current.profile;
      const changesConnection = data.whatsappId !== undefined && data.whatsappId !== current.whatsappId;
      const currentQueues = current.queues.map((q) => q.id).sort((a, b) => a - b);
      const changesQueues =
        data.queueIds !== undefined && [...new Set(data.queueIds)].sort((a, b) => a - b).join() !== currentQueues.join();
      // The limit of open tickets is the admins' to set (issue 36 §4).
      const changesLimit = data.maxOpenTickets !== undefined && data.maxOpenTickets !== current.maxOpenTickets;
      if (changesProfile || changesConnection || changesQueues || changesLimit) throw new AppError('ERR_NO_PERMISSION');
    }
    if (data.email && (await repo.emailTaken(data.email, id))) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
    if (admin && data.profile === 'user' && current.profile === 'admin' && (await repo.countAdmins()) <= 1) {
      throw new AppError('ERR_LAST_ADMIN', 'The last admin cannot lose the admin profile.');
    }
    const write: UserWrite = { name: data.name, email: data.email };
    if (data.password) {
      write.passwordHash = await hashPassword(data.password);
      // Ends the other sign-ins: access tokens issued before now stop working (AuthService.authenticate).
      write.tokensValidAfter = new Date();
    }
    if (admin) {
      write.profile = data.profile;
      write.whatsappId = data.whatsappId;
      write.maxOpenTickets = data.maxOpenTickets;
    }
    try {
      await this.db.transaction(async (tx) => {
        const txRepo = new UsersRepository(tx);
        await txRepo.update(id, write);
        if (data.password) {
          // A user changing their own password stays signed in where they did it; every other sign-in ends.
          await new RefreshTokensRepository(tx).revokeAllOf(id, actor.id === id ? actor.sessionId : undefined);
        }
        if (admin && data.queueIds !== undefined) await txRepo.setQueues(id, [...new Set(data.queueIds)]);
        const after = await txRepo.findDto(id);
        await audit.record(tx, { action: 'user.update', targetType: 'user', targetId: id, before: current, after: data.password ? { ...after, password: 'changed' } : after });
      });
    } catch (err) {
      throw this.translateWriteError(err);
    }
    const user = (await repo.findDto(id))!;
    this.events.emit('user.saved', { user, created: false });
    return user;
  }

  /** Deletes a user; their open tickets go back to the queue as pending. */
  async delete(actor: AuthUser, id: number): Promise<void> {
    if (actor.id === id) throw new AppError('ERR_CANNOT_DELETE_SELF', 'You cannot delete yourself.');
    const existing = await this.repo().findRecordById(id);
    if (!existing) throw new AppError('ERR_NO_USER_FOUND');
    const ticketIds = await this.db.transaction(async (tx) => {
      const txRepo = new UsersRepository(tx);
      const before = await txRepo.findDto(id);
      const returned = await txRepo.returnOpenTicketsToQueue(id);
      await txRepo.delete(id);
      await audit.record(tx, { action: 'user.delete', targetType: 'user', targetId: id, before });
      return returned;
    });
    this.events.emit('user.deleted', { userId: id });
    if (ticketIds.length > 0) this.events.emit('tickets.changed', { ticketIds });
  }

  private translateWriteError(err: unknown): unknown {
    if (isUniqueViolation(err)) return new AppError('ERR_EMAIL_ALREADY_EXISTS');
    if (isForeignKeyViolation(err)) return new AppError('ERR_VALIDATION', 'A queue or connection given does not exist.');
    return err;
  }
}
