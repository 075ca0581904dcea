import type { Ref } from 'react';
import { Alert, List } from '@mantine/core';
import { INVOICE_MESSAGES } from '@tramo/domain';

/** Nubefact's codigo_unico: one per document the user means to issue, so a retry never issues twice. */
export const newUniqueCode = () => crypto.randomUUID().replace(/-/g, '').slice(0, 20);

/** Under every issuing form: the rules' problems headed 'Corrige:' (spec section 8), then a provider or network failure. */
export function IssueAlerts({
  problems,
  failure,
  problemsRef,
}: {
  problems: readonly string[];
  failure: string | null;
  problemsRef?: Ref<HTMLDivElement>;
}) {
  return (
    <>
      {problems.length > 0 && (
        <Alert ref={problemsRef} color="red" variant="light" title={INVOICE_MESSAGES.heading} role="alert">
          <List size="sm" spacing={2}>
            {problems.map((p) => (
              <List.Item key={p}>{p}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      )}
    </>
  );
}
