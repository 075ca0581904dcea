import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createProviders } from '../src/providers/index.ts';

// Every provider is built at start from config.ts; a variable that would make it silently fall back
// to the offline one (half a pair, a URL without its scheme, a timer that is not a number) stops the start.
describe('config: the lookup and notification providers’ variables', () => {
  it('builds the lookup over HTTP with both variables and the local directory with neither', () => {
    const both = loadConfig({ LOOKUP_URL: 'https://consulta.example.pe/api', LOOKUP_TOKEN: 'secreto' });
    expect(both).toMatchObject({ lookupUrl: 'https://consulta.example.pe/api', lookupToken: 'secreto' });
    expect(createProviders(both).lookup.name).toBe('http');
    expect(createProviders(loadConfig({})).lookup.name).toBe('local');
  });

  it('refuses half a lookup configuration or a URL without http(s), saying what is wrong', () => {
    expect(() => loadConfig({ LOOKUP_URL: 'https://consulta.example.pe/api' })).toThrow('LOOKUP_URL está definido pero falta LOOKUP_TOKEN');
    expect(() => loadConfig({ LOOKUP_TOKEN: 'secreto' })).toThrow('LOOKUP_TOKEN está definido pero falta LOOKUP_URL');
    expect(() => loadConfig({ LOOKUP_URL: 'consulta.example.pe/api', LOOKUP_TOKEN: 'secreto' })).toThrow(
      'LOOKUP_URL debe empezar con http:// o https://',
    );
  });

  it('builds the notifier from its channels and refuses half a WhatsApp configuration', () => {
    const both = loadConfig({ SMTP_URL: 'smtps://u:p@smtp.example.pe:465', WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '123' });
    expect(createProviders(both).notify.name).toBe('email+whatsapp');
    expect(createProviders(loadConfig({})).notify.name).toBe('outbox-only');
    expect(() => loadConfig({ WHATSAPP_TOKEN: 't' })).toThrow('WHATSAPP_TOKEN está definido pero falta WHATSAPP_PHONE_NUMBER_ID');
    expect(() => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: '123' })).toThrow('WHATSAPP_PHONE_NUMBER_ID está definido pero falta WHATSAPP_TOKEN');
  });

  it('refuses an SMTP URL of another scheme, a WhatsApp API URL without http(s) and timers that are not milliseconds', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example.pe' })).toThrow('SMTP_URL debe empezar con smtp:// o smtps://');
    expect(() => loadConfig({ WHATSAPP_API_URL: 'graph.facebook.com' })).toThrow('WHATSAPP_API_URL debe empezar con http:// o https://');
    expect(() => loadConfig({ NOTIFY_TIMEOUT_MS: 'quince' })).toThrow('NOTIFY_TIMEOUT_MS debe ser un número entero de milisegundos');
    expect(() => loadConfig({ NOTIFY_POLL_MS: '-1' })).toThrow('NOTIFY_POLL_MS debe ser un número entero de milisegundos');
    expect(loadConfig({ NOTIFY_POLL_MS: '0' }).notify.pollMs).toBe(0);
  });
});
