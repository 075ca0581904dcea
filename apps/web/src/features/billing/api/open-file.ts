import { apiFile } from '../../../lib/api.ts';

export type DocumentFile = 'a4' | 'ticket' | 'xml';

/** A document's PDF (A4 or 80 mm ticket) or signed XML, fetched with the session. */
export function fetchDocumentFile(id: number, file: DocumentFile): Promise<Blob> {
  return file === 'xml' ? apiFile(`/billing/documents/${id}/xml`) : apiFile(`/billing/documents/${id}/pdf`, { format: file });
}

/** Saves a blob under a name (the XML's 'Descargar'). */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
