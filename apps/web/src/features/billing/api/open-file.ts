import { apiFile } from '../../../lib/api.ts';

export type DocumentFile = 'a4' | 'ticket' | 'xml' | 'void-xml';

/** A document's PDF (A4 or 80 mm ticket), signed XML, or the signed RA/RC that voided it, fetched with the session. */
export function fetchDocumentFile(id: number, file: DocumentFile): Promise<Blob> {
  if (file === 'xml' || file === 'void-xml') return apiFile(`/billing/documents/${id}/${file}`);
  return apiFile(`/billing/documents/${id}/pdf`, { format: file });
}
