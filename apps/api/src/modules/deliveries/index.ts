/** What other modules use of deliveries: the proof-of-delivery PDF (the public tracking page's copy). */
export { renderProofPdf } from './pod-pdf.ts';
export type { StoredProof } from './proof.ts';
