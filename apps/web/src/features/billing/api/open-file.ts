import { apiFile } from '../../../lib/api.ts';

export type DocumentFile = 'a4' | 'ticket' | 'xml';

/** A document's PDF (A4 or 80 mm ticket) or signed XML, fetched with the session. */
export function fetchDocumentFile(id: number, file: DocumentFile): Promise<Blob> {
  return file === 'xml' ? apiFile(`/billing/documents/${id}/xml`) : apiFile(`/billing/documents/${id}/pdf`, { format: file });
}
