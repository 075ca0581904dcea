import { describe, expect, it } from 'vitest';
import {
  checkInvoice,
  checkRouteReference,
  FREIGHT_TRIP_MESSAGES,
  INVOICE_MESSAGES,
  invoiceProblems,
  ROUTE_REFERENCE_MESSAGES,
  routeReferenceValues,
  type InvoiceContext,
} from '../src/index.ts';

const TODAY = '2026-05-15';
const ctx: InvoiceContext = { today: TODAY };

const TRIP = {
  ubigeo_origen: '150101',
  direccion_origen: 'Av. Nicolás de Piérola 1020, Cercado de Lima',
  ubigeo_destino: '040101',
  direccion_destino: 'Calle Mercaderes 214, Arequipa',
  detalle_viaje: 'Carga consolidada Lima - Arequipa',
  val_ref_serv_trans: '1500.00',
  val_ref_carga_efec: '820.50',
  val_ref_carga_util: 1200,
};

/** A freight factura of 1,000.00 + IGV = 1,180.00; with the trip's service reference of 1,500.00 the detracción is 4 % of 1,500 = 60.00. */
const freightFactura = (viaje: Record<string, unknown> | null, extras: Record<string, unknown> = {}) => ({
  type: '01',
  issueDate: TODAY,
  serie: 'FFF1',
  items: [{ description: 'Servicio de transporte de carga Lima → Arequipa', unit: 'ZZ', quantity: 1, unitValue: 1000, igvType: '10' }],
  customer: { doc_type: 6, doc_number: '20100070970', name: 'Supermercados Peruanos S.A.', address: 'Av. Morro Solar 1130, Surco' },
  extras: {
    detraccion: true,
    detraccion_porcentaje: 4,
    detraccion_total: 60,
    cuenta_detraccion: '00-101-123456',
    medio_de_pago_detraccion: 1,
    viaje,
    ...extras,
  },
});

describe('the freight trip of a detracción factura (operation 1004)', () => {
  it('carries the checked trip, its service reference value as the detracción base', () => {
    const check = checkInvoice(freightFactura(TRIP), ctx);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.draft.operationType).toBe('1004');
    expect(check.draft.detraction).toMatchObject({
      baseCents: 150_000,
      referenceValueCents: 150_000,
      amountCents: 6_000,
      trip: {
        originUbigeo: '150101',
        destinationUbigeo: '040101',
        detail: 'Carga consolidada Lima - Arequipa',
        serviceReferenceCents: 150_000,
        effectiveLoadReferenceCents: 82_050,
        nominalLoadReferenceCents: 120_000,
      },
    });
  });

  it('names every part of the trip that is missing or wrong (SUNAT 3116, 3124-3126)', () => {
    const empty = { ubigeo_origen: '', direccion_origen: '', ubigeo_destino: '4010', direccion_destino: 'x'.repeat(101), detalle_viaje: ' ' };
    expect(invoiceProblems(freightFactura(empty), ctx)).toEqual([
      FREIGHT_TRIP_MESSAGES.originUbigeo,
      FREIGHT_TRIP_MESSAGES.originAddress,
      FREIGHT_TRIP_MESSAGES.destinationUbigeo,
      FREIGHT_TRIP_MESSAGES.destinationAddress,
      FREIGHT_TRIP_MESSAGES.detail,
      FREIGHT_TRIP_MESSAGES.serviceReference,
      FREIGHT_TRIP_MESSAGES.effectiveLoadReference,
      FREIGHT_TRIP_MESSAGES.nominalLoadReference,
      // Without a trip the base is the total: 4 % of 1,180.00.
      INVOICE_MESSAGES.detraction.amountExpected('47.00'),
    ]);
    expect(invoiceProblems(freightFactura({ ...TRIP, val_ref_carga_efec: '0', val_ref_carga_util: '10.005' }), ctx)).toEqual([
      FREIGHT_TRIP_MESSAGES.effectiveLoadReference,
      FREIGHT_TRIP_MESSAGES.nominalLoadReference,
      INVOICE_MESSAGES.detraction.amountExpected('47.00'),
    ]);
  });

  it('refuses a detracción factura without any trip, naming all eight parts', () => {
    expect(invoiceProblems(freightFactura(null, { detraccion_total: 47 }), ctx)).toEqual([
      FREIGHT_TRIP_MESSAGES.originUbigeo,
      FREIGHT_TRIP_MESSAGES.originAddress,
      FREIGHT_TRIP_MESSAGES.destinationUbigeo,
      FREIGHT_TRIP_MESSAGES.destinationAddress,
      FREIGHT_TRIP_MESSAGES.detail,
      FREIGHT_TRIP_MESSAGES.serviceReference,
      FREIGHT_TRIP_MESSAGES.effectiveLoadReference,
      FREIGHT_TRIP_MESSAGES.nominalLoadReference,
    ]);
  });

  it("computes a route's reference values from its per-TM value and loads, and checks its configuration", () => {
    expect(routeReferenceValues({ servicePerTmCents: 11_110, effectiveLoadTm: '5.00', nominalLoadTm: '8.00' })).toEqual({
      serviceCents: 88_880,
      effectiveLoadCents: 55_550,
      nominalLoadCents: 88_880,
    });
    expect(routeReferenceValues({ servicePerTmCents: 11_110, effectiveLoadTm: '0', nominalLoadTm: '8' })).toBeNull();
    const check = checkRouteReference({ originBranchId: 1, destinationBranchId: 1, servicePerTm: '0', effectiveLoadTm: 9, nominalLoadTm: '8.001' });
    expect(check).toEqual({
      ok: false,
      problems: [ROUTE_REFERENCE_MESSAGES.sameBranch, ROUTE_REFERENCE_MESSAGES.servicePerTm, ROUTE_REFERENCE_MESSAGES.nominalLoad],
    });
    expect(checkRouteReference({ originBranchId: 1, destinationBranchId: 2, servicePerTm: 111.1, effectiveLoadTm: 9, nominalLoadTm: 8 })).toEqual({
      ok: false,
      problems: [ROUTE_REFERENCE_MESSAGES.effectiveAboveNominal],
    });
  });

  it("refuses a detracción reference value other than the trip's service reference", () => {
    expect(invoiceProblems(freightFactura(TRIP, { valor_referencial: '1400.00' }), ctx)).toEqual([
      FREIGHT_TRIP_MESSAGES.referenceValueMismatch('1500.00'),
    ]);
    expect(invoiceProblems(freightFactura(TRIP, { valor_referencial: '1500.00' }), ctx)).toEqual([]);
  });
});
