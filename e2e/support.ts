import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO = {
  ADMIN: 'admin123',
  AGENTE1: 'agente123',
  AGENTE2: 'agente123',
  REPARTIDOR1: 'reparto123',
} as const;

export async function login(page: Page, username: string, password: string = DEMO[username as keyof typeof DEMO]) {
  await page.goto('/login');
  await page.getByLabel('Usuario').fill(username);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

export async function loginAndWait(page: Page, username: string, password?: string) {
  await login(page, username, password);
  await expect(page.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
}

export async function logout(page: Page) {
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A name no other test (or earlier run on the same data) has used. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1000)}`;

/** A demo user's API token, for preparing data through the API. */
export async function apiToken(request: APIRequestContext, username: keyof typeof DEMO): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username, password: DEMO[username] } });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { token: string }).token;
}

export interface ApiShipment {
  id: number;
  code: string;
}

/**
 * A shipment created now through the API (status Creado), by AGENTE1 from Lima to Arequipa unless
 * told otherwise; `fields` override the body (recipient, lines, secret code…).
 */
export async function createShipment(
  request: APIRequestContext,
  options: { as?: keyof typeof DEMO; origin?: string; destination?: string; fields?: Record<string, unknown> } = {},
): Promise<ApiShipment> {
  const headers = { authorization: `Bearer ${await apiToken(request, options.as ?? 'AGENTE1')}` };
  const branches = (await (await request.get('/api/branches', { headers })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const res = await request.post('/api/shipments', {
    headers,
    data: {
      senderName: 'Rosa Quispe Mamani',
      recipientDoc: '45879612',
      recipientFirstName: 'María',
      recipientLastName: 'Flores Ccori',
      originBranchId: id(options.origin ?? 'Lima'),
      destinationBranchId: id(options.destination ?? 'Arequipa'),
      lines: [{ productType: 'liviano', weightKg: 2.5 }],
      secretCode: 'clave-7',
      ...options.fields,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as ApiShipment;
}

/**
 * Issue 36: a vehicle loads and departs only with its SOAT and CITV in force (and a driver with
 * their licence). Gives a vehicle or a driver made by a test the documents the gate asks for.
 */
export async function giveFleetDocuments(request: APIRequestContext, headers: Record<string, string>, holder: 'transports' | 'drivers', id: number) {
  const types = holder === 'transports' ? ['soat', 'citv'] : ['licencia'];
  for (const type of types) {
    const res = await request.post(`/api/${holder}/${id}/documents`, { headers, data: { type, number: `E2E-${type}`, expiresOn: '2099-12-31' } });
    expect(res.status(), await res.text()).toBe(201);
  }
}
