import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FleetDocument, FleetDocumentInput } from '@tramo/domain';
import { api, apiFile } from '../../../lib/api.ts';
import { fleetKeys, type DocumentHolderKind } from './keys.ts';

/** One vehicle's or driver's documents with expiry (issue 36), soonest expiry first. */
export const holderDocumentsQuery = (kind: DocumentHolderKind, id: number) =>
  queryOptions({
    queryKey: fleetKeys.holderDocuments(kind, id),
    queryFn: ({ signal }) => api.get<FleetDocument[]>(`/${kind}/${id}/documents`, undefined, signal),
  });
export const useHolderDocuments = (kind: DocumentHolderKind, id: number) => useQuery(holderDocumentsQuery(kind, id));

/** A new document changes the gate, the Documentos tab and the Panel's warning: every fleet query refetches. */
export function useAddDocument(kind: DocumentHolderKind, id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FleetDocumentInput) => api.post<FleetDocument>(`/${kind}/${id}/documents`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
}

export function useDeleteDocument(kind: DocumentHolderKind, id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: number) => api.delete(`/${kind}/${id}/documents/${documentId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
}

export const documentFile = (kind: DocumentHolderKind, id: number, documentId: number) => apiFile(`/${kind}/${id}/documents/${documentId}/file`);
