import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { limaDay, type GuidePayloadInput } from '@tramo/domain';
import { PageSkeleton } from '../../../../components/ui/PageSkeleton.tsx';
import { api, errorMessage } from '../../../../lib/api.ts';
import { GuideForm } from './GuideForm.tsx';
import { guideValuesFrom } from './guide-values.ts';

/**
 * The guide tab: an empty guide, or — with a transport (Transportistas › Asignaciones › 'Emitir guía
 * transportista') — the carrier guide of its load, built by the API for the user to review and issue.
 * Not yet on BillingPage: it is wired there (and the button on Asignaciones added) together with the
 * guides API of issue 15 (POST /guides/create-emit, /guides/consult, /transports/{id}/carrier-guide).
 */
export function GuideTab({ transportId }: { transportId: number | null }) {
  const prefill = useQuery({
    queryKey: ['billing', 'carrier-guide', transportId],
    queryFn: ({ signal }) => api.get<GuidePayloadInput>(`/transports/${transportId}/carrier-guide`, undefined, signal),
    enabled: transportId !== null,
    retry: false,
    gcTime: 0,
  });
  if (transportId === null) return <GuideForm />;
  if (prefill.isPending) return <PageSkeleton />;
  if (prefill.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(prefill.error)}
      </Alert>
    );
  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        Guía del transportista armada con la carga del transporte: revísala y emítela.
      </Text>
      <GuideForm
        key={transportId}
        initial={guideValuesFrom(prefill.data, limaDay(new Date()))}
        issuePath={`/transports/${transportId}/carrier-guide`}
      />
    </>
  );
}
