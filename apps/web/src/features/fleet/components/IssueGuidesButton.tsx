import { Button } from '@mantine/core';
import { formatDocumentNumber } from '@tramo/domain';
import { confirmDanger } from '../../../components/ui/confirm.tsx';
import { notify } from '../../../lib/notify.ts';
import { useIssueCarrierGuides } from '../api/carrier-guides.ts';

/**
 * 'Emitir guías' (issue 36): the load's GRE transportista at once, one per remitente/destinatario
 * pair still without one; says which were issued and which SUNAT refused, and why.
 */
export function IssueGuidesButton({ transportId, plate, disabled }: { transportId: number; plate: string; disabled: boolean }) {
  const issue = useIssueCarrierGuides();
  const run = async () => {
    const ok = await confirmDanger({
      title: 'Emitir guías',
      message: `¿Emitir las guías de remisión transportista de la carga de ${plate}? Se emite una por cada remitente y destinatario que aún no tiene guía.`,
      confirmLabel: 'Emitir guías',
      color: 'teal',
    });
    if (!ok) return;
    issue.mutate(transportId, {
      onSuccess: ({ guides }) => {
        const issued = guides.filter((g) => g.ok && g.serie && g.numero);
        const refused = guides.filter((g) => !g.ok);
        if (issued.length)
          notify.success(
            `${issued.length === 1 ? 'Guía emitida' : `${issued.length} guías emitidas`}: ${issued.map((g) => formatDocumentNumber(g.serie!, g.numero!)).join(', ')}.`,
          );
        for (const g of refused) notify.error(`Guía de ${g.shipmentCodes.join(', ')}: ${g.error ?? 'no se pudo emitir.'}`);
      },
      onError: (err) => notify.error(err),
    });
  };
  return (
    <Button size="xs" variant="light" color="teal" onClick={() => void run()} disabled={disabled} loading={issue.isPending}>
      Emitir guías
    </Button>
  );
}
