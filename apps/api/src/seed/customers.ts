import { isValidRuc, type CustomerData } from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { customers } from '../db/schema.ts';

type SeedCustomer = Omit<CustomerData, 'ubigeo' | 'email' | 'phone' | 'address' | 'lastName'> &
  Partial<Pick<CustomerData, 'lastName' | 'address' | 'ubigeo' | 'phone' | 'email'>>;

const person = (firstName: string, lastName: string, dni: string, phone: string, address: string, ubigeo: string, email?: string): SeedCustomer => ({
  firstName,
  lastName,
  doc_type: 1,
  doc_number: dni,
  phone,
  address,
  ubigeo,
  email,
});

const company = (name: string, ruc: string, phone: string, address: string, ubigeo: string, email?: string): SeedCustomer => ({
  firstName: name,
  doc_type: 6,
  doc_number: ruc,
  phone,
  address,
  ubigeo,
  email,
});

/** Fictional people and companies (RUCs carry valid SUNAT check digits), spread over the branch cities. */
export const DEMO_CUSTOMERS: readonly SeedCustomer[] = [
  person('Rosa Elena', 'Quispe Mamani', '45871236', '987654321', 'Jr. Huallaga 345, Cercado de Lima', '150101', 'rosa.quispe@gmail.com'),
  person('Carlos Alberto', 'Flores Huamán', '40218753', '956123478', 'Av. Arequipa 2450, Lince', '150116', 'cflores@hotmail.com'),
  person('María del Pilar', 'Gonzales Ríos', '41762390', '999128734', 'Calle Las Begonias 120, San Isidro', '150131', 'mpilar.gonzales@yahoo.com'),
  person('José Luis', 'Chávez Condori', '43129856', '978345612', 'Av. Ejército 812, Cayma', '040103', 'jlchavez@gmail.com'),
  person('Luz Marina', 'Torres Vargas', '46591234', '965478123', 'Calle Mercaderes 214, Arequipa', '040101'),
  person('Juan Carlos', 'Mendoza Paredes', '42987612', '954321876', 'Av. Larco 1045, Trujillo', '130101', 'jc.mendoza@outlook.com'),
  person('Ana Lucía', 'Rojas Castillo', '47812356', '991234567', 'Jr. Pizarro 560, Trujillo', '130101', 'analucia.rojas@gmail.com'),
  person('Pedro Pablo', 'Huanca Ccallo', '44562318', '984561237', 'Av. El Sol 630, Cusco', '080101'),
  person('Yolanda', 'Apaza Choque', '40876543', '973216548', 'Calle Saphi 455, Cusco', '080101', 'yolanda.apaza@gmail.com'),
  person('Miguel Ángel', 'Sánchez Ramos', '48123765', '962134587', 'Av. Grau 1120, Piura', '200101', 'masanchez@gmail.com'),
  person('Carmen Rosa', 'Zapata Silva', '45098721', '951236478', 'Calle Libertad 340, Piura', '200101'),
  person('Luis Fernando', 'Díaz Campos', '43987125', '948765123', 'Av. Balta 1520, Chiclayo', '140101', 'luisf.diaz@hotmail.com'),
  person('Gladys', 'Vásquez Tello', '41234598', '937456812', 'Calle Elías Aguirre 780, Chiclayo', '140101'),
  person('Jorge Enrique', 'Ramírez Salas', '46712398', '926547813', 'Av. Brasil 3120, Magdalena del Mar', '150120', 'jramirez.salas@gmail.com'),
  person('Patricia', 'Huamaní Ccahuana', '47345612', '915478236', 'Jr. Junín 1340, Breña', '150105', 'patty.huamani@gmail.com'),
  person('Fernando', 'Castro Aguilar', '42456781', '994561278', 'Av. Los Próceres 560, Santiago de Surco', '150140'),
  person('Diana Carolina', 'Salinas Pérez', '48976512', '982347651', 'Calle Los Pinos 215, Miraflores', '150122', 'diana.salinas@gmail.com'),
  person('Walter', 'Mamani Quispe', '40567812', '971238456', 'Av. Dolores 410, José Luis Bustamante y Rivero', '040129'),
  company('Comercial Los Andes S.A.C.', '20608123459', '014225566', 'Av. Argentina 1780, Cercado de Lima', '150101', 'ventas@comerciallosandes.pe'),
  company('Agroexportadora Norte Verde S.A.', '20605123784', '044298877', 'Carretera Industrial Km 4, Trujillo', '130101', 'logistica@norteverde.pe'),
  company('Textil Misti E.I.R.L.', '20481234566', '054213344', 'Calle Consuelo 401, Arequipa', '040101', 'contacto@textilmisti.pe'),
  company('Ferretería El Constructor S.R.L.', '20539988779', '073304455', 'Av. Sánchez Cerro 1890, Piura', '200101'),
  company('Inversiones Qosqo Tours S.A.C.', '20600111222', '084231122', 'Av. Pardo 880, Cusco', '080101', 'reservas@qosqotours.pe'),
  company('Distribuidora Muchik S.A.C.', '20451239873', '074206688', 'Av. Luis Gonzales 1250, Chiclayo', '140101', 'pedidos@muchik.pe'),
  company('Farmacias Salud Total S.A.C.', '20605554441', '016178899', 'Av. Angamos Este 1560, Surquillo', '150141', 'compras@saludtotal.pe'),
  company('Ramos Cárdenas Hilda', '10423456715', '955667788', 'Jr. Ayacucho 233, Trujillo', '130101', 'hildaramos@gmail.com'),
  company('Villanueva Soto Raúl Ernesto', '10709876541', '944332211', 'Mz. C Lt. 8 Urb. Los Cedros, Chiclayo', '140101'),
  company('Paucar Huillca Edwin', '10461237890', '933221144', 'Av. Tullumayo 455, Cusco', '080101', 'edwin.paucar@gmail.com'),
  {
    firstName: 'Andrés Eduardo',
    lastName: 'Pérez Márquez',
    doc_type: 4,
    doc_number: '001234567',
    phone: '912345678',
    address: 'Av. Benavides 3540, Santiago de Surco',
    ubigeo: '150140',
    email: 'andres.perez.m@gmail.com',
  },
  {
    firstName: 'Valentina',
    lastName: 'Rodríguez Linares',
    doc_type: 4,
    doc_number: '002345618',
    phone: '923456781',
    address: 'Jr. Lampa 870, Cercado de Lima',
    ubigeo: '150101',
  },
  {
    firstName: 'Daniel José',
    lastName: 'Hernández Colmenares',
    doc_type: 4,
    doc_number: '003128456',
    phone: '934567812',
    address: 'Calle Bolívar 215, Trujillo',
    ubigeo: '130101',
    email: 'dhernandez.c@hotmail.com',
  },
  {
    firstName: 'Sophie',
    lastName: 'Martin',
    doc_type: 7,
    doc_number: '19823456',
    phone: '945678123',
    address: 'Calle Tecsecocha 190, Cusco',
    ubigeo: '080101',
    email: 'sophie.martin@laposte.net',
  },
  {
    firstName: 'Michael',
    lastName: 'Johnson',
    doc_type: 7,
    doc_number: '548712396',
    phone: '956781234',
    address: 'Malecón Cisneros 1240, Miraflores',
    ubigeo: '150122',
    email: 'mjohnson@gmail.com',
  },
  {
    firstName: 'Hiroshi',
    lastName: 'Tanaka',
    doc_type: 7,
    doc_number: '712345098',
    phone: '967812345',
    address: 'Calle San Francisco 305, Arequipa',
    ubigeo: '040101',
  },
];

export async function seedCustomers(db: Db): Promise<void> {
  // A seed RUC with a wrong check digit would make the demo contradict its own form.
  const broken = DEMO_CUSTOMERS.find((c) => c.doc_type === 6 && !isValidRuc(c.doc_number));
  if (broken) throw new Error(`RUC de demostración inválido: ${broken.doc_number}`);
  await db.insert(customers).values(
    DEMO_CUSTOMERS.map((c) => ({
      firstName: c.firstName,
      lastName: c.lastName ?? null,
      docType: c.doc_type,
      docNumber: c.doc_number,
      address: c.address ?? null,
      ubigeo: c.ubigeo ?? null,
      phone: c.phone ?? null,
      email: c.email ?? null,
    })),
  );
}
