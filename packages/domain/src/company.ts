import { z } from 'zod';
import { rucError } from './customers.ts';

/**
 * The company's own data (issue 36, DESIGN.md 5b): one settings record, edited by admins, audited.
 * The MTC registration goes on every GRE transportista (SUNAT observation 4391 without it).
 */

export const COMPANY_LOGO_LIMITS = { maxBytes: 512 * 1024, label: '512 KB' } as const;
export const COMPANY_LOGO_TYPES = ['image/jpeg', 'image/png'] as const;
export type CompanyLogoType = (typeof COMPANY_LOGO_TYPES)[number];
/** The logo travels as a data URL inside the JSON body: base64 grows it by a third, plus the fields. */
export const COMPANY_BODY_LIMIT = Math.ceil((COMPANY_LOGO_LIMITS.maxBytes * 4) / 3) + 32 * 1024;

export const COMPANY_MESSAGES = {
  nameRequired: 'La razón social es obligatoria.',
  addressRequired: 'La dirección fiscal es obligatoria.',
  mtcInvalid: 'Registro MTC inválido: de 1 a 20 letras o números, sin espacios (p. ej. 1532CXNO).',
  logoType: 'El logo debe ser una imagen JPG o PNG.',
  logoTooLarge: `El logo no puede pesar más de ${COMPANY_LOGO_LIMITS.label}.`,
  noLogo: 'La empresa no tiene logo.',
  saved: 'Datos de la empresa guardados.',
} as const;

/** SUNAT's pattern for the carrier's MTC registration number (numRegistroMTC in the GRE-T). */
export const MTC_REGISTRATION = /^[A-Za-z0-9]{1,20}$/;

const LOGO_DATA_URL = /^data:(image\/(?:jpeg|png));base64,([A-Za-z0-9+/]+={0,2})$/;

/** A logo data URL's type and decoded size, or null when it is not a base64 JPEG or PNG. */
export function parseCompanyLogo(value: string): { type: CompanyLogoType; base64: string; bytes: number } | null {
  const m = LOGO_DATA_URL.exec(value);
  if (!m || m[2]!.length % 4 !== 0) return null;
  const base64 = m[2]!;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return { type: m[1] as CompanyLogoType, base64, bytes: (base64.length / 4) * 3 - padding };
}

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** PUT /api/settings/company. `logo`: a data URL replaces it, null removes it, absent keeps it. */
export const companySchema = z.object({
  ruc: z
    .string({ error: 'El RUC es obligatorio.' })
    .trim()
    .superRefine((v, ctx) => {
      const error = rucError(v);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  name: z.string({ error: COMPANY_MESSAGES.nameRequired }).trim().min(1, COMPANY_MESSAGES.nameRequired).max(200, 'Máximo 200 caracteres'),
  tradeName: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(100, 'Máximo 100 caracteres')
      .nullish()
      .transform((v) => v ?? null),
  ),
  address: z.string({ error: COMPANY_MESSAGES.addressRequired }).trim().min(1, COMPANY_MESSAGES.addressRequired).max(250, 'Máximo 250 caracteres'),
  mtcRegistration: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .regex(MTC_REGISTRATION, COMPANY_MESSAGES.mtcInvalid)
      .nullish()
      .transform((v) => (v ? v.toUpperCase() : null)),
  ),
  /**
   * Whether a departure waits until the trip's GRE transportista are accepted by SUNAT (on by
   * default). Stored for issue 36 item 4 ('Emitir guías'); the departure does not read it yet.
   */
  guidesBeforeDeparture: z.boolean({ error: 'Indica sí o no.' }).default(true),
  logo: z
    .string({ error: COMPANY_MESSAGES.logoType })
    .refine((v) => parseCompanyLogo(v) !== null, { message: COMPANY_MESSAGES.logoType, abort: true })
    .refine((v) => parseCompanyLogo(v)!.bytes <= COMPANY_LOGO_LIMITS.maxBytes, COMPANY_MESSAGES.logoTooLarge)
    .nullable()
    .optional(),
});
export type CompanyInput = z.input<typeof companySchema>;
export type CompanyData = z.output<typeof companySchema>;

export const companyAnswerSchema = z.object({
  ruc: z.string(),
  name: z.string(),
  tradeName: z.string().nullable(),
  address: z.string(),
  mtcRegistration: z.string().nullable(),
  guidesBeforeDeparture: z.boolean(),
  /** The logo is served apart, at GET /api/settings/company/logo. */
  logoType: z.enum(COMPANY_LOGO_TYPES).nullable(),
  updatedAt: z.string().nullable(),
  updatedByName: z.string().nullable(),
});
export type Company = z.infer<typeof companyAnswerSchema>;
