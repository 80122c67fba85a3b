import { CONTACT_CSV_IMPORT_MAX_BYTES } from '@wadesk/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { decodeCsv } from './contacts-csv-import.js';

const megabytes = `${CONTACT_CSV_IMPORT_MAX_BYTES / (1024 * 1024)} MB`;

function invalid(message: string, status?: number): AppError {
  return new AppError('ERR_VALIDATION', message, { issues: [{ path: 'file', message }], status });
}

/**
 * The CSV text of an import request: the first file of a multipart body, or a text/csv body; at most
 * CONTACT_CSV_IMPORT_MAX_BYTES (413 beyond). UTF-8 with or without BOM (Windows-1252 as a fallback).
 */
export async function readCsvUpload(request: FastifyRequest): Promise<string> {
  if (request.isMultipart()) {
    let bytes: Buffer;
    try {
      const file = await request.file({ limits: { fileSize: CONTACT_CSV_IMPORT_MAX_BYTES, files: 1, fields: 5 } });
      if (!file) throw invalid('Send the CSV file in the field "file".');
      bytes = await file.toBuffer();
    } catch (err) {
      if (err instanceof AppError) throw err;
      const { code, statusCode } = err as { code?: string; statusCode?: number };
      if (code === 'FST_REQ_FILE_TOO_LARGE' || statusCode === 413) throw invalid(`The file passes ${megabytes}.`, 413);
      throw invalid(`Malformed multipart body (${err instanceof Error ? err.message : 'unreadable'})`);
    }
    return decodeCsv(bytes);
  }
  if (Buffer.isBuffer(request.body)) return decodeCsv(request.body);
  throw invalid('Send a CSV file: multipart/form-data (field "file") or a text/csv body.', 415);
}
