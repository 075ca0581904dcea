import { expect, type Page } from '@playwright/test';

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
