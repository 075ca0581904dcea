import { useState } from 'react';
import { Button, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import { errorMessage } from '../../../lib/api.ts';
import { notify } from '../../../lib/notify.ts';
import type { Shipment } from '@tramo/domain';
import { downloadProofPdf, useDeliveryProof } from '../api/proof.ts';

/**
 * A delivered shipment's proof (issue 18), for staff: the photo and the signature taken at the
 * handover, and the constancia (POD PDF) to download.
 */
export function DeliveryProofView({ shipment }: { shipment: Pick<Shipment, 'id' | 'code' | 'deliveredInfo'> }) {
  const info = shipment.deliveredInfo;
  const hasImages = !!(info?.hasPhoto || info?.hasSignature);
  const proof = useDeliveryProof(shipment.id, hasImages);
  const [downloading, setDownloading] = useState(false);

  const download = () => {
    setDownloading(true);
    downloadProofPdf(shipment.id, shipment.code)
      .catch((err: unknown) => notify.error(errorMessage(err), 'No se pudo descargar la constancia.'))
      .finally(() => setDownloading(false));
  };

  return (
    <Stack gap="xs">
      {hasImages &&
        (proof.isPending ? (
          <Skeleton h={110} />
        ) : proof.isError ? (
          <Text size="sm" c="red">
            {errorMessage(proof.error, 'No se pudo cargar la foto y la firma.')}
          </Text>
        ) : (
          <Group gap="md" align="flex-start">
            {proof.data.photo && (
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  Foto
                </Text>
                <Image src={proof.data.photo} alt="Foto de la entrega" h={110} w="auto" fit="contain" radius="sm" />
              </Stack>
            )}
            {proof.data.signature && (
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  Firma
                </Text>
                <Image src={proof.data.signature} alt="Firma de quien recibió" h={110} w="auto" fit="contain" bg="white" radius="sm" />
              </Stack>
            )}
          </Group>
        ))}
      <Group>
        <Button size="compact-sm" variant="light" loading={downloading} onClick={download}>
          Descargar constancia (PDF)
        </Button>
      </Group>
    </Stack>
  );
}
