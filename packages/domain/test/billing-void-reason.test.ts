import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, cancelPaymentSchema, providerAnnulRequestSchema, VOID_REASON_MAX_LENGTH, voidRequestSchema } from '../src/index.ts';

/** The void reason has one limit and one message wherever a void is asked (issue 30). */
describe('the void reason', () => {
  const atLimit = 'x'.repeat(VOID_REASON_MAX_LENGTH);
  const tooLong = 'x'.repeat(VOID_REASON_MAX_LENGTH + 1);

  it('is told in the limit it has', () => {
    expect(BILLING_MESSAGES.voidReasonLong).toBe(`El motivo admite hasta ${VOID_REASON_MAX_LENGTH} caracteres.`);
  });

  it('is refused past the limit by POST /billing/void and by the provider annul, with the same message', () => {
    expect(voidRequestSchema.safeParse({ id: 1, motivo: `  ${atLimit}  ` })).toMatchObject({ success: true, data: { motivo: atLimit } });
    const billing = voidRequestSchema.safeParse({ id: 1, motivo: tooLong });
    const annul = providerAnnulRequestSchema.safeParse({ type: '01', series: 'F001', number: 1, reason: tooLong });
    expect(billing.error?.issues.map((i) => i.message)).toEqual([BILLING_MESSAGES.voidReasonLong]);
    expect(annul.error?.issues.map((i) => i.message)).toEqual([BILLING_MESSAGES.voidReasonLong]);
  });

  it('limits a payment cancel (its receipt is voided with that reason) to the same length', () => {
    expect(cancelPaymentSchema.safeParse({ motivo: atLimit }).success).toBe(true);
    expect(cancelPaymentSchema.safeParse({ motivo: tooLong }).success).toBe(false);
  });
});
