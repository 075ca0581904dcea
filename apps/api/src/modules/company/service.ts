import { eq } from 'drizzle-orm';
import { COMPANY_MESSAGES, displayName, parseCompanyLogo, type Company, type CompanyData, type CompanyLogoType } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { company } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { reencodeImage } from '../../lib/images.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

/**
 * The company's data (issue 36): one row, read by the manifests and the GRE transportista. Before
 * an admin first saves it, the issuer configured for billing (config.ts) stands in, with no MTC.
 */

const columns = {
  ruc: company.ruc,
  name: company.name,
  tradeName: company.tradeName,
  address: company.address,
  mtcRegistration: company.mtcRegistration,
  guidesBeforeDeparture: company.guidesBeforeDeparture,
  logoType: company.logoType,
  updatedAt: company.updatedAt,
  updatedByName: company.updatedByName,
};

type Ctx = Pick<ServiceContext, 'db' | 'config' | 'now'>;

async function read(db: Db | Tx, ctx: Pick<Ctx, 'config'>): Promise<Company> {
  const [row] = await db.select(columns).from(company).where(eq(company.id, 1));
  if (row) return { ...row, logoType: row.logoType as CompanyLogoType | null, updatedAt: row.updatedAt.toISOString() };
  const issuer = ctx.config.billing.issuer;
  return {
    ruc: issuer.ruc,
    name: issuer.name,
    tradeName: issuer.tradeName || null,
    address: issuer.address,
    mtcRegistration: null,
    guidesBeforeDeparture: true,
    logoType: null,
    updatedAt: null,
    updatedByName: null,
  };
}

/** GET /api/settings/company, and what other modules print or send (companyProfile). */
export const getCompany = (ctx: Ctx) => read(ctx.db, ctx);

async function decodeLogo(dataUrl: string) {
  const parsed = parseCompanyLogo(dataUrl);
  const refuse = () => badRequest(COMPANY_MESSAGES.logoType, { logo: COMPANY_MESSAGES.logoType });
  if (!parsed) throw refuse();
  // Decoded and encoded again like the delivery photos: what is stored is an image, nothing else.
  const bytes = await reencodeImage(Buffer.from(parsed.base64, 'base64'), parsed.type);
  if (!bytes) throw refuse();
  return { bytes, type: parsed.type };
}

/** PUT /api/settings/company (admin): the whole record, audited with its before and after. */
export async function updateCompany(ctx: Ctx, actor: SessionUser, data: CompanyData): Promise<Company> {
  const logo = data.logo === undefined || data.logo === null ? data.logo : await decodeLogo(data.logo);
  return ctx.db.transaction(async (tx) => {
    // The single row is locked so two admins saving at once are ordered, each audit before the other's after.
    const [existing] = await tx.select({ id: company.id }).from(company).where(eq(company.id, 1)).for('update');
    const before = await read(tx, ctx);
    const values = {
      ruc: data.ruc,
      name: data.name,
      tradeName: data.tradeName,
      address: data.address,
      mtcRegistration: data.mtcRegistration,
      guidesBeforeDeparture: data.guidesBeforeDeparture,
      updatedAt: ctx.now(),
      updatedBy: actor.id,
      updatedByName: displayName(actor),
      ...(logo === undefined ? {} : { logo: logo?.bytes ?? null, logoType: logo?.type ?? null }),
    };
    if (existing) await tx.update(company).set(values).where(eq(company.id, 1));
    else
      await tx
        .insert(company)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: company.id, set: values });
    const after = await read(tx, ctx);
    await audit(tx, { userId: actor.id, entity: 'company', entityId: 1, action: 'update', before, after });
    return after;
  });
}

/** Whether a departure waits for the trip's GRE-T to be accepted (on until an admin turns it off). */
export async function guidesBeforeDeparture(db: Db | Tx): Promise<boolean> {
  const [row] = await db.select({ on: company.guidesBeforeDeparture }).from(company).where(eq(company.id, 1));
  return row?.on ?? true;
}

/** The logo to print (manifests, guides), or null when the company has none. */
export async function findCompanyLogo(db: Db): Promise<Buffer | null> {
  const [row] = await db.select({ logo: company.logo }).from(company).where(eq(company.id, 1));
  return row?.logo ? Buffer.from(row.logo) : null;
}

/** GET /api/settings/company/logo. */
export async function companyLogo(db: Db) {
  const [row] = await db.select({ logo: company.logo, logoType: company.logoType }).from(company).where(eq(company.id, 1));
  if (!row?.logo || !row.logoType) throw notFound(COMPANY_MESSAGES.noLogo);
  return { bytes: Buffer.from(row.logo), type: row.logoType };
}
