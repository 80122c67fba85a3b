import type { MultipartFile } from '@fastify/multipart';
import { hasNoNulCharacter, INPUT_MESSAGES, MESSAGES, textField } from '@wadesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
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

function invalid(path: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });
}

/** The one answer to an upload over a limit (a file, the files of a request, their count): 413 ERR_PAYLOAD_TOO_LARGE. */
export function payloadTooLarge(path: string, message: string): AppError {
  return new AppError('ERR_PAYLOAD_TOO_LARGE', `${path}: ${message}`, { issues: [{ path, message }] });
}

function checkedFilename(filename: string | undefined, field: string): string | undefined {
  if (!filename) return undefined;
  if (!hasNoNulCharacter(filename)) throw invalid(field, `file name: ${INPUT_MESSAGES.invalidCharacter}`);
  if (filename.length > MAX_FILENAME_LENGTH) throw invalid(field, `file name: ${MESSAGES.tooLong}`);
  return filename;
}

/** Bounds of one multipart read, for the messages of `multipartFailure`. */
interface PartLimits {
  field: string;
  fileBytes: number;
  files: number;
}

/** The client's mistake behind a failure while reading a multipart body, as 400 or 413; null for server faults. */
function multipartFailure(err: unknown, limits: PartLimits): AppError | null {
  if (err instanceof AppError) return err;
  const { field } = limits;
  if (err instanceof UploadTooLargeError) return payloadTooLarge(field, `at most ${megabytes(err.limitBytes)} in all`);
  if (!(err instanceof Error)) return null;
  // A failing disk (ENOSPC, EACCES, ...) is the server's problem, not the request's.
  if ('syscall' in err) return null;
  const { code, statusCode } = err as Error & { code?: string; statusCode?: number };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return payloadTooLarge(field, `a file passes ${megabytes(limits.fileBytes)}`);
  if (code === 'FST_FILES_LIMIT') return payloadTooLarge(field, limits.files === 1 ? 'one file only' : `at most ${limits.files} files`);
  if (statusCode === 413) return payloadTooLarge(field, 'too many parts');
  // No boundary, a truncated body, a malformed part header, a prototype field name, ...
  return invalid(field, `malformed multipart body (${err.message})`);
}

/**
 * Reads one file part to its end through `sink`, then refuses it (413) if it passed the size limit. The multipart
 * parser does not always throw at the limit: it ends the file's stream there with `file.truncated` set, and when
 * the limit falls on the end of a chunk already read, nothing throws at all and the first bytes look like the whole
 * file. Only the flag, read once the stream has ended, tells; so every upload route reads its files through here.
 */
export async function readFilePart<T>(part: MultipartFile, limits: PartLimits, sink: (stream: Readable) => Promise<T>): Promise<T> {
  const result = await sink(part.file);
  if (part.file.truncated) throw payloadTooLarge(limits.field, `a file passes ${megabytes(limits.fileBytes)}`);
  return result;
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads the one file of a small upload (field `field`) into memory: at most `maxBytes` (413 ERR_PAYLOAD_TOO_LARGE
 * beyond, whether or not the parser noticed), one file. null when the body holds no file.
 */
export async function readMultipartFile(
  request: FastifyRequest,
  { field, maxBytes }: { field: string; maxBytes: number },
): Promise<{ data: Buffer; filename?: string; mimetype: string } | null> {
  const limits: PartLimits = { field, fileBytes: maxBytes, files: 1 };
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: MAX_FIELD_BYTES } });
    if (!part) return null;
    const filename = checkedFilename(part.filename, field);
    const data = await readFilePart(part, limits, toBuffer);
    return { data, filename, mimetype: part.mimetype };
  } catch (err) {
    throw multipartFailure(err, limits) ?? err;
  }
}

/**
 * Reads a multipart message (`body` caption + `medias` files) with every file streamed to the spool, never
 * held in memory: at most `limits.fileBytes` a file, `limits.files` files and `limits.requestBytes` in all
 * (413 ERR_PAYLOAD_TOO_LARGE beyond). Malformed bodies are 400 ERR_VALIDATION. The caller discards the spool.
 */
export async function readMultipartMessage(
  request: FastifyRequest,
  spool: UploadSpool,
): Promise<{ body: string; files: UploadedFile[] }> {
  const limits: PartLimits = { field: 'medias', fileBytes: spool.limits.fileBytes, files: spool.limits.files };
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
        const filename = checkedFilename(part.filename, 'medias');
        const written = await readFilePart(part, limits, (stream) => spool.write(stream));
        files.push({ path: written.path, mimetype: part.mimetype, filename });
      } else if (part.fieldname === 'body') {
        if (part.valueTruncated) throw invalid('body', MESSAGES.tooLong);
        const caption = Caption.safeParse(part.value);
        if (!caption.success) throw invalid('body', caption.error.issues[0]?.message ?? 'Invalid input');
        body = caption.data;
      } else if (part.fieldname === 'private' && /^(true|1)$/i.test(String(part.value))) {
        // An internal note is text only (issue 36 §1): files always go to the contact, so none is taken as a note.
        throw invalid('private', 'A note is text only: files cannot be notes');
      }
    }
  } catch (err) {
    throw multipartFailure(err, limits) ?? err;
  }
  return { body, files };
}
