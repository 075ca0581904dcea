/** A chip of the credit screens is never truncated ('Vigen…' could be anything), as the status chip. */
export const WHOLE_CHIP = { root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } } as const;
