import { Alert, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { limaDay, type CarrierGuideAnswer } from '@tramo/domain';
import { PageSkeleton } from '../../../../components/ui/PageSkeleton.tsx';
import { api, errorMessage } from '../../../../lib/api.ts';
import { GuideForm } from './GuideForm.tsx';
import { guideValuesFrom } from './guide-values.ts';

/**
 * The guide tab: an empty guide, or — with a transport (Transportistas › Asignaciones › 'Emitir guía
 * transportista') — the carrier guide of its load, built by the API for the user to review and issue,
 * with the API's warnings (data the transport or its branches lack, a load of several senders) shown
 * above the form so the user knows what to complete by hand.
 */
export function GuideTab({ transportId }: { transportId: number | null }) {
  const prefill = useQuery({
    queryKey: ['billing', 'carrier-guide', transportId],
    queryFn: ({ signal }) => api.get<CarrierGuideAnswer>(`/transports/${transportId}/carrier-guide`, undefined, signal),
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
      {prefill.data.warnings.length > 0 && (
        <Alert color="yellow" variant="light" mb="sm" title="Revisa antes de emitir">
          <List size="sm">
            {prefill.data.warnings.map((w) => (
              <List.Item key={w}>{w}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <GuideForm
        key={transportId}
        initial={guideValuesFrom(prefill.data, limaDay(new Date()))}
        issuePath={`/transports/${transportId}/carrier-guide`}
      />
    </>
  );
}
