import type { LookupResult } from '@tramo/domain';

/**
 * A small fictional RENIEC/SUNAT directory the local provider answers from in demo mode only, so a
 * demo user can try the DNI/RUC lookup on people and companies that are not customers yet. Never
 * used when DEMO=0: a real number must not come back with an invented name.
 */
export const DEMO_DIRECTORY: readonly Omit<LookupResult, 'source'>[] = [
  { docType: 'dni', docNumber: '41526374', name: 'Milagros Elena Paredes Cárdenas', firstName: 'Milagros Elena', lastName: 'Paredes Cárdenas' },
  { docType: 'dni', docNumber: '42637485', name: 'Julio César Ticona Apaza', firstName: 'Julio César', lastName: 'Ticona Apaza' },
  { docType: 'dni', docNumber: '43748596', name: 'Giovanna Rocío Salazar Yupanqui', firstName: 'Giovanna Rocío', lastName: 'Salazar Yupanqui' },
  { docType: 'dni', docNumber: '44859607', name: 'Wilber Alfonso Ccori Huallpa', firstName: 'Wilber Alfonso', lastName: 'Ccori Huallpa' },
  { docType: 'dni', docNumber: '45960718', name: 'Katherine Lucía Zevallos Pinto', firstName: 'Katherine Lucía', lastName: 'Zevallos Pinto' },
  {
    docType: 'ruc',
    docNumber: '20604556679',
    name: 'Andes Cargo Express S.A.C.',
    firstName: 'Andes Cargo Express S.A.C.',
    address: 'Av. Los Incas 1240, Wanchaq, Cusco',
    ubigeo: '080108',
    estado: 'ACTIVO',
    condicion: 'HABIDO',
  },
  {
    docType: 'ruc',
    docNumber: '20607778885',
    name: 'Distribuidora El Sol del Norte E.I.R.L.',
    firstName: 'Distribuidora El Sol del Norte E.I.R.L.',
    address: 'Calle San José 455, Chiclayo',
    ubigeo: '140101',
    estado: 'ACTIVO',
    condicion: 'NO HABIDO',
  },
  {
    docType: 'ruc',
    docNumber: '20603216548',
    name: 'Textiles Santa Catalina S.R.L.',
    firstName: 'Textiles Santa Catalina S.R.L.',
    address: 'Jr. Mercaderes 312, Arequipa',
    ubigeo: '040101',
    estado: 'BAJA DE OFICIO',
    condicion: 'HABIDO',
  },
  {
    docType: 'ruc',
    docNumber: '10456781239',
    name: 'Huamán Rojas Teodoro',
    firstName: 'Huamán Rojas Teodoro',
    address: 'Mz. B Lt. 12 Urb. Santa Rosa, Piura',
    ubigeo: '200101',
    estado: 'ACTIVO',
    condicion: 'HABIDO',
  },
];
