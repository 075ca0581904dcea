import { describe, expect, it } from 'vitest';
import { explainProviderError, explainSunatAnswer, SUNAT_HINTS, sunatCodesIn, sunatHint } from '../src/index.ts';

describe("SUNAT's answer codes and how to fix each, one map for the sandbox and Nubefact", () => {
  it('explains every code it knows in Spanish, and leaves the others as SUNAT said them', () => {
    for (const [code, hint] of Object.entries(SUNAT_HINTS)) {
      expect(hint.length).toBeGreaterThan(30);
      expect(sunatHint(code)).toBe(hint);
    }
    expect(explainSunatAnswer('3267', 'La fecha de pago de la cuota debe ser posterior a la fecha de emisión.')).toBe(
      `La fecha de pago de la cuota debe ser posterior a la fecha de emisión (SUNAT 3267). Cómo corregirlo: ${SUNAT_HINTS['3267']}`,
    );
    expect(explainSunatAnswer('3116', null)).toBe(`SUNAT 3116: Cómo corregirlo: ${SUNAT_HINTS['3116']}`);
    expect(explainSunatAnswer('2335', 'Otro error')).toBe('Otro error');
    expect(explainSunatAnswer(null, null)).toBeNull();
  });

  it('finds the rules a Nubefact error points at: SUNAT codes in its text, then the fields it names', () => {
    expect(sunatCodesIn('El comprobante fue rechazado: 2119 - El comprobante no ha sido informado')).toEqual(['2119']);
    expect(sunatCodesIn('ubigeo_origen: 6 dígitos; val_ref_carga_util: número > 0 con hasta 2 decimales')).toEqual(['3116', '3126']);
    expect(sunatCodesIn('cliente_direccion no puede estar vacío')).toEqual(['direccion-cliente']);
    expect(sunatCodesIn('La serie debe tener 4 caracteres (error 20)')).toEqual(['1001']);
    expect(sunatCodesIn('Fecha 2026-11-26 inválida')).toEqual([]);
    expect(explainProviderError('Nubefact rechazó el documento por un dato inválido (código 20): cliente_direccion vacío.')).toBe(
      `Nubefact rechazó el documento por un dato inválido (código 20): cliente_direccion vacío. Cómo corregirlo: ${SUNAT_HINTS['direccion-cliente']}`,
    );
    expect(explainProviderError('error 21')).toBe('error 21');
  });
});
