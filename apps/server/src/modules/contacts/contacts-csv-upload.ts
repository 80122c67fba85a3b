import { CONTACT_CSV_IMPORT_MAX_BYTES } from '@wadesk/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { readMultipartFile } from '../../storage/multipart-upload.js';
import { decodeCsv } from './contacts-csv-import.js';

function invalid(message: string, status?: number): AppError {
  return new AppError('ERR_VALIDATION', message, { issues: [{ path: 'file', message }], status });
}

/**
 * The CSV text of an import request: the first file of a multipart body, or a text/csv body; at most
 * CONTACT_CSV_IMPORT_MAX_BYTES (413 ERR_PAYLOAD_TOO_LARGE beyond, never a truncated file). UTF-8 with or
 * without BOM (Windows-1252 as a fallback).
 */
export async function readCsvUpload(request: FastifyRequest): Promise<string> {
  if (request.isMultipart()) {
    const file = await readMultipartFile(request, { field: 'file', maxBytes: CONTACT_CSV_IMPORT_MAX_BYTES });
    if (!file) throw invalid('Send the CSV file in the field "file".');
    return decodeCsv(file.data);
  }
  if (Buffer.isBuffer(request.body)) return decodeCsv(request.body);
  throw invalid('Send a CSV file: multipart/form-data (field "file") or a text/csv body.', 415);
}
