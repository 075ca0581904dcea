/** What other modules use of users: the answer shape of a user (auth answers it for the session). */
export { toUserDto } from './dto.ts';
