// What other features may use from billing (DESIGN.md section 2: never reach into internals).
export { ShipmentDocuments } from './components/ShipmentDocuments.tsx';
export { PdfViewer, type PdfRequest } from './components/PdfViewer.tsx';
export { DocumentStatusBadge } from './components/DocumentStatusBadge.tsx';
