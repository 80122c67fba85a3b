import { hasNoNulCharacter, INPUT_MESSAGES, MESSAGES, textField } from '@wadesk/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error.js';
import { UploadTooLargeError, type UploadSpool } from './upload-spool.js';

/** A file of a multipart request, already written to a spool file. */
export interface UploadedFile {
  path: string;
  mimetype: string;
  filename?: string;
}

const Caption = textField(30000);
const MAX_FILENAME_LENGTH = 255;
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 256 * 1024;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

function invalid(path: string, message: string, status?: number): AppError {
  return new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }], status });
}

function checkedFilename(filename: string | undefined): string | undefined {
  if (!filename) return undefined;
  if (!hasNoNulCharacter(filename)) throw invalid('medias', `file name: ${INPUT_MESSAGES.invalidCharacter}`);
  if (filename.length > MAX_FILENAME_LENGTH) throw invalid('medias', `file name: ${MESSAGES.tooLong}`);
  return filename;
}

/** The client's mistake behind a failure while reading a multipart body, as 400 or 413; null for server faults. */
function asClientError(err: unknown, spool: UploadSpool): AppError | null {
  if (err instanceof AppError) return err;
  const { limits } = spool;
  if (err instanceof UploadTooLargeError) return invalid('medias', `at most ${megabytes(limits.requestBytes)} in all`, 413);
  if (!(err instanceof Error)) return null;
  // A failing disk (ENOSPC, EACCES, ...) is the server's problem, not the request's.
  if ('syscall' in err) return null;
  const { code, statusCode } = err as Error & { code?: string; statusCode?: number };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return invalid('medias', `a file passes ${megabytes(limits.fileBytes)}`, 413);
  if (code === 'FST_FILES_LIMIT') return invalid('medias', `at most ${limits.files} files`, 413);
  if (statusCode === 413) return invalid('medias', 'too many parts', 413);
  // No boundary, a truncated body, a malformed part header, a prototype field name, ...
  return invalid('medias', `malformed multipart body (${err.message})`);
}

/**
 * Reads a multipart message (`body` caption + `medias` files) with every file streamed to the spool, never
 * held in memory: at most `limits.fileBytes` a file, `limits.files` files and `limits.requestBytes` in all
 * (413 beyond). Malformed bodies are 400 ERR_VALIDATION. The caller discards the spool when done.
 */
export async function readMultipartMessage(
  request: FastifyRequest,
  spool: UploadSpool,
): Promise<{ body: string; files: UploadedFile[] }> {
  const { limits } = spool;
  let body = '';
  const files: UploadedFile[] = [];
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.fileBytes,
        files: limits.files,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: limits.files + MAX_FIELDS,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const filename = checkedFilename(part.filename);
        const written = await spool.write(part.file);
        if (part.file.truncated) throw invalid('medias', `a file passes ${megabytes(limits.fileBytes)}`, 413);
        files.push({ path: written.path, mimetype: part.mimetype, filename });
      } else if (part.fieldname === 'body') {
        if (part.valueTruncated) throw invalid('body', MESSAGES.tooLong);
        const caption = Caption.safeParse(part.value);
        if (!caption.success) throw invalid('body', caption.error.issues[0]?.message ?? 'Invalid input');
        body = caption.data;
      }
    }
  } catch (err) {
    throw asClientError(err, spool) ?? err;
  }
  return { body, files };
}
