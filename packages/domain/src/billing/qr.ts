import { centsToString, type Cents } from '../money.ts';
import type { BillingDocType, SunatDocumentType } from './catalogs.ts';

export interface QrFields {
  issuerRuc: string;
  type: SunatDocumentType;
  series: string;
  number: number;
  igvCents: Cents;
  totalCents: Cents;
  /** YYYY-MM-DD. */
  issueDate: string;
  customerDocType: BillingDocType;
  customerDocNumber: string;
  hash: string;
}

/**
 * The text of the SUNAT QR printed on every comprobante:
 * `RUC|TIPO|SERIE|NUMERO|IGV|TOTAL|FECHA|TIPO_DOC_CLIENTE|NUM_DOC_CLIENTE|HASH|`, written like
 * SUNAT.md's example (`20123456789|03|BBB1|000004|9.73|63.70|30/07/2026|1|70606878|<hash>|`):
 * number padded to 6 digits, amounts with 2 decimals, date DD/MM/YYYY, a trailing separator.
 */
export function sunatQrText(f: QrFields): string {
  const [y, m, d] = f.issueDate.split('-');
  return [
    f.issuerRuc,
    f.type,
    f.series,
    String(f.number).padStart(6, '0'),
    centsToString(f.igvCents),
    centsToString(f.totalCents),
    `${d}/${m}/${y}`,
    String(f.customerDocType),
    f.customerDocNumber || '-',
    f.hash,
    '',
  ].join('|');
}
