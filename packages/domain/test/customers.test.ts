import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_MESSAGES,
  customerSchema,
  DOC_MAX_LENGTH,
  documentError,
  dniError,
  isValidRuc,
  rucCheckDigit,
  rucError,
  rucNeedsAttention,
} from '../src/index.ts';

/** Field → first message, the way the form and the API show them. */
function errorsOf(input: unknown): Record<string, string> {
  const result = customerSchema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

const base = { firstName: 'Rosa', lastName: 'Quispe', doc_type: 1, doc_number: '45871236' };

describe('RUC check digit (SUNAT modulo 11)', () => {
  it.each(['20100047218', '20131312955', '20100070970', '10467793549', '15123456782', '17123456785'])('accepts %s', (ruc) => {
    expect(rucError(ruc)).toBeNull();
    expect(isValidRuc(ruc)).toBe(true);
  });

  it('computes the digit including the 10 → 0 and 11 → 1 cases', () => {
    expect(rucCheckDigit('2010004721')).toBe(8);
    // Weighted sum 0 → 11 - 0 = 11 → 1.
    expect(rucCheckDigit('0000000000')).toBe(1);
    // Find a prefix whose remainder is 1 (11 - 1 = 10 → 0) and check the rule holds.
    const ten = Array.from({ length: 1000 }, (_, i) => `2010000${String(i).padStart(3, '0')}`).find((p) => {
      const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
      const sum = [...p].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
      return sum % 11 === 1;
    })!;
    expect(rucCheckDigit(ten)).toBe(0);
    expect(isValidRuc(`${ten}0`)).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(rucError('20100047219')).toBe(CUSTOMER_MESSAGES.rucCheckDigit);
    expect(rucError('20131312950')).toBe('RUC inválido: el dígito verificador no corresponde');
  });

  it('rejects a prefix other than 10, 15, 17, 20 even with a right digit', () => {
    const body = '3010004721';
    expect(rucError(`${body}${rucCheckDigit(body)}`)).toBe('RUC inválido: debe empezar con 10, 15, 17 o 20');
    const eleven = '1110004721';
    expect(rucError(`${eleven}${rucCheckDigit(eleven)}`)).toBe(CUSTOMER_MESSAGES.rucPrefix);
  });

  it('rejects wrong lengths and non-digits', () => {
    expect(rucError('2010004721')).toBe('RUC debe tener 11 dígitos');
    expect(rucError('201000472180')).toBe('RUC debe tener 11 dígitos');
    expect(rucError('2010004721A')).toBe('Solo se permiten dígitos');
  });
});

describe('DNI', () => {
  it('needs exactly 8 digits', () => {
    expect(dniError('45871236')).toBeNull();
    expect(dniError('00012345')).toBeNull();
    expect(dniError('4587123')).toBe('DNI debe tener 8 dígitos');
    expect(dniError('458712361')).toBe('DNI debe tener 8 dígitos');
    expect(dniError('4587123a')).toBe('Solo se permiten dígitos');
  });
});

describe('documentError by type', () => {
  it('caps carné de extranjería and pasaporte at 15 digits, digits only', () => {
    expect(DOC_MAX_LENGTH).toEqual({ 1: 8, 4: 15, 6: 11, 7: 15 });
    expect(documentError(4, '001234567')).toBeNull();
    expect(documentError(7, '123456789012345')).toBeNull();
    expect(documentError(7, '1234567890123456')).toBe('Máximo 15 dígitos');
    expect(documentError(4, '1234567890123456')).toBe('Máximo 15 dígitos');
    expect(documentError(7, 'AB123456')).toBe('Solo se permiten dígitos');
    expect(documentError(1, '')).toBe('Número de documento es obligatorio');
  });
});

describe('customerSchema', () => {
  it('accepts a complete DNI customer and turns blanks into null', () => {
    const r = customerSchema.parse({ ...base, address: '  ', ubigeo: '', phone: '', email: '  ' });
    expect(r).toEqual({
      firstName: 'Rosa',
      lastName: 'Quispe',
      doc_type: 1,
      doc_number: '45871236',
      address: null,
      ubigeo: null,
      phone: null,
      email: null,
    });
  });

  it('takes doc_type as a number or a string', () => {
    expect(customerSchema.parse({ ...base, doc_type: '1' }).doc_type).toBe(1);
    expect(customerSchema.parse({ ...base, doc_type: 6, doc_number: '20100047218', lastName: null }).doc_type).toBe(6);
    expect(customerSchema.parse({ ...base, doc_type: ' 7 ', doc_number: '123456789' }).doc_type).toBe(7);
  });

  it('uses the spec messages for missing fields', () => {
    expect(errorsOf({})).toMatchObject({
      firstName: 'Nombres es obligatorio',
      doc_type: 'Tipo de documento es obligatorio',
      doc_number: 'Número de documento es obligatorio',
    });
    expect(errorsOf({ firstName: '  ', doc_type: '', doc_number: ' ' })).toEqual({
      firstName: 'Nombres es obligatorio',
      doc_type: 'Tipo de documento es obligatorio',
      doc_number: 'Número de documento es obligatorio',
    });
    expect(errorsOf({ ...base, doc_type: 3 }).doc_type).toBe('Tipo de documento inválido');
    expect(errorsOf({ ...base, doc_type: null }).doc_type).toBe('Tipo de documento es obligatorio');
  });

  it('puts the document rules on doc_number, together with other field errors', () => {
    expect(errorsOf({ ...base, doc_number: '1234567' })).toEqual({ doc_number: 'DNI debe tener 8 dígitos' });
    expect(errorsOf({ ...base, firstName: '', doc_number: '1234567' })).toEqual({
      firstName: 'Nombres es obligatorio',
      doc_number: 'DNI debe tener 8 dígitos',
    });
    expect(errorsOf({ ...base, doc_type: 6, doc_number: '2010004721' })).toEqual({ doc_number: 'RUC debe tener 11 dígitos' });
    expect(errorsOf({ ...base, doc_type: 6, doc_number: '20100047219' })).toEqual({ doc_number: CUSTOMER_MESSAGES.rucCheckDigit });
    expect(errorsOf({ ...base, doc_type: 6, doc_number: '30100047218' })).toEqual({ doc_number: CUSTOMER_MESSAGES.rucPrefix });
    expect(errorsOf({ ...base, doc_number: '4587-123' })).toEqual({ doc_number: 'Solo se permiten dígitos' });
    expect(errorsOf({ ...base, doc_type: 4, doc_number: '1234567890123456' })).toEqual({ doc_number: 'Máximo 15 dígitos' });
  });

  it('checks ubigeo, phone and email only when given', () => {
    expect(errorsOf({ ...base, ubigeo: '15010' }).ubigeo).toBe('Ubigeo debe tener 6 dígitos');
    expect(errorsOf({ ...base, ubigeo: '15010a' }).ubigeo).toBe('Ubigeo debe tener 6 dígitos');
    expect(customerSchema.parse({ ...base, ubigeo: '150101' }).ubigeo).toBe('150101');
    expect(errorsOf({ ...base, email: 'rosa@' }).email).toBe('Correo inválido');
    expect(errorsOf({ ...base, phone: 'llamar' }).phone).toBe('Teléfono inválido');
    expect(customerSchema.parse({ ...base, phone: '+51 987 654 321' }).phone).toBe('+51 987 654 321');
  });
});

describe('rucNeedsAttention', () => {
  it('flags a RUC not ACTIVO or not HABIDO', () => {
    expect(rucNeedsAttention({ estado: 'ACTIVO', condicion: 'HABIDO' })).toBe(false);
    expect(rucNeedsAttention({ estado: 'BAJA DE OFICIO', condicion: 'HABIDO' })).toBe(true);
    expect(rucNeedsAttention({ estado: 'ACTIVO', condicion: 'NO HABIDO' })).toBe(true);
    expect(rucNeedsAttention({})).toBe(false);
  });
});
