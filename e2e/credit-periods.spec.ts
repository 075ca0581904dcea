import { expect, test, type APIRequestContext } from '@playwright/test';
import { addDays, limaDay } from '@tramo/domain';
import { apiToken, loginAndWait } from './support.ts';

const SHOTS = process.env.CREDIT_SHOTS ?? 'test-results/credit-periods';

/**
 * Two RUC customers of the demo with weekly credit accounts, each paying on credit (as a third
 * party) for demo shipments of earlier weeks: their weeks have ended, so 'Facturar periodos
 * vencidos' lists them. Answers the customers' names.
 */
async function prepare(request: APIRequestContext): Promise<string[]> {
  const headers = { authorization: `Bearer ${await apiToken(request, 'ADMIN')}` };
  const customers = (
    (await (await request.get('/api/customers', { headers, params: { pageSize: 50 } })).json()) as {
      items: { id: number; doc_type: number; doc_number: string; firstName: string; lastName: string | null }[];
    }
  ).items.filter((c) => c.doc_type === 6);
  const payers = customers.slice(0, 2);
  const shipments = (
    (await (
      await request.get('/api/shipments', {
        headers,
        params: { status: 'Creado', dateTo: addDays(limaDay(new Date()), -8), pageSize: 100 },
      })
    ).json()) as { items: { id: number }[] }
  ).items;
  let next = 0;
  for (const [n, payer] of payers.entries()) {
    const opened = await request.put(`/api/credit/accounts/${payer.id}`, {
      headers,
      data: { limit: '50000', termsDays: 30, period: 'semanal', contactName: 'Cobranzas', contactEmail: 'cobranzas@example.pe' },
    });
    expect(opened.ok(), await opened.text()).toBeTruthy();
    // A shipment already paid or loaded keeps who pays: the next one is tried.
    for (let taken = 0; taken < 3 - n && next < shipments.length; next++) {
      const res = await request.put(`/api/shipments/${shipments[next]!.id}/who-pays`, {
        headers,
        data: {
          payer: 'tercero',
          paymentMoment: 'credito',
          payerDocType: 6,
          payerDocNumber: payer.doc_number,
          payerName: payer.firstName,
          payerCustomerId: payer.id,
        },
      });
      if (res.ok()) taken++;
    }
  }
  return payers.map((p) => [p.firstName, p.lastName].filter(Boolean).join(' '));
}

test("'Facturar periodos vencidos' previews each account's ended week, issues one factura each, and a second run finds none", async ({
  page,
  request,
}) => {
  const names = await prepare(request);
  await loginAndWait(page, 'ADMIN');
  await page.goto('/credito');
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(page.getByRole('button', { name: 'Ver cuenta' }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/page-1024.png` });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.getByRole('button', { name: 'Facturar periodos vencidos' }).click();
  const dialog = page.getByRole('dialog', { name: 'Facturar periodos vencidos' });
  for (const name of names) await expect(dialog.getByText(name, { exact: true }).first()).toBeVisible();
  const issue = dialog.getByRole('button', { name: /^Emitir \d+ facturas?$/ });
  await expect(issue).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/preview-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/preview-1024.png`, fullPage: true });

  const count = Number(/(\d+)/.exec((await issue.textContent()) ?? '')![1]);
  // The demo routes' reference values put a detracción on some: the account is asked once, before the run.
  const account = dialog.getByLabel('Cuenta de detracciones (Banco de la Nación)');
  if (await account.isVisible()) {
    await issue.click();
    await expect(dialog.getByText('Detracción: ingresa la cuenta de detracciones del Banco de la Nación (solo dígitos).')).toBeVisible();
    await account.fill('00-005-123456');
  }
  await issue.click();
  await expect(dialog.getByRole('status')).toContainText(`${count === 1 ? '1 factura emitida' : `${count} facturas emitidas`}`);
  await expect(dialog.getByText('Emitida', { exact: true })).toHaveCount(count);
  await page.screenshot({ path: `${SHOTS}/results-1024.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: `${SHOTS}/results-1366.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click(); // the first is the dialog's own ×

  await page.getByRole('button', { name: 'Facturar periodos vencidos' }).click();
  await expect(page.getByRole('dialog', { name: 'Facturar periodos vencidos' }).getByText('No hay periodos vencidos por facturar.')).toBeVisible();
});
