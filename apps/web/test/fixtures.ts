import type { Role, User } from '@tramo/domain';

/** AGENTE1 of the demo (Luis Ramírez, Lima); other roles or fields by override. */
export const signedUser = (over: Partial<User> & { role?: Role } = {}): User => ({
  id: 2,
  username: 'AGENTE1',
  firstName: 'Luis',
  lastName: 'Ramírez',
  name: 'Luis Ramírez',
  email: null,
  role: 'agent',
  branchId: 1,
  branchName: 'Lima',
  mustChangePassword: false,
  ...over,
});

export const testBranches = [
  { id: 1, name: 'Lima', city: 'Lima', address: null },
  { id: 2, name: 'Trujillo', city: 'Trujillo', address: null },
  { id: 3, name: 'Arequipa', city: 'Arequipa', address: null },
];
