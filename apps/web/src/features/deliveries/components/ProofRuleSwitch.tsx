import { Switch } from '@mantine/core';
import { PROOF_MESSAGES } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { notify } from '../../../lib/notify.ts';
import { useDeliverySettings, useUpdateDeliverySettings } from '../api/proof.ts';

/** The company's rule (issue 18, admins only): 'Confirmar entrega' requires the photo and the signature. */
export function ProofRuleSwitch() {
  const settings = useDeliverySettings();
  const update = useUpdateDeliverySettings();
  return (
    <Switch
      label="Exigir foto y firma"
      checked={settings.data?.proofRequired ?? false}
      disabled={!settings.data || update.isPending}
      onChange={(e) =>
        update.mutate(
          { proofRequired: e.currentTarget.checked },
          {
            onSuccess: () => notify.success(PROOF_MESSAGES.settingsSaved),
            onError: (err) => notify.error(errorMessage(err), 'No se pudo guardar la configuración.'),
          },
        )
      }
    />
  );
}
