const factor = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const kg = new Intl.NumberFormat('es-PE', { maximumFractionDigits: 2 });

/** 1.4 → "1.40", 1.335 → "1.335": factors keep up to 4 decimals. */
export const formatFactor = (value: number) => factor.format(value);
export const formatKg = (value: number) => kg.format(value);
