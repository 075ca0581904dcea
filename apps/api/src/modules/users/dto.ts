import { displayName, type User } from '@tramo/domain';
import type { SessionUser } from '../../types.ts';

/** The user as the API shows it: never the hash, never the token version. */
export function toUserDto(u: Omit<SessionUser, 'tokenVersion'>): User {
  return {
    id: u.id,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    name: displayName(u),
    email: u.email,
    role: u.role,
    branchId: u.branchId,
    branchName: u.branchName,
    mustChangePassword: u.mustChangePassword,
  };
}
