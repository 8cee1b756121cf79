// The rules of who may do what that the server enforces and the dashboard shows: one copy, so the
// dashboard never offers what the server refuses. It loads no schema (the roles come from the
// route table's zod-free copy), so the dashboard's shell imports it without zod.
import { ROLES } from './constants.js';
import { ROUTE_ROLES } from './route-paths.js';
import type { RouteName } from './routes.js';
import type { Role } from './workspaces.js';

/** Whether `role` is at least `required` (roles are ordered weakest first). */
export function roleAtLeast(role: Role | undefined, required: Role): boolean {
  return role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/** Whether `role` is at least the weakest role the route table declares for `route`. */
export function roleMayCall(role: Role | undefined, route: RouteName): boolean {
  const required = ROUTE_ROLES[route];
  return required === undefined || roleAtLeast(role, required);
}

/**
 * Members change and delete only what they made (links, QR codes); admins and owners change
 * everything; viewers nothing.
 */
export function mayChange(actor: { role: Role | undefined; userId: string | undefined }, resource: { createdBy: string | null }): boolean {
  if (roleAtLeast(actor.role, 'admin')) return true;
  return actor.role === 'member' && actor.userId !== undefined && resource.createdBy === actor.userId;
}

/** Only an owner makes someone an owner (an invite or a role change); admins grant the rest. */
export function mayGrantRole(actorRole: Role | undefined, role: Role): boolean {
  return role !== 'owner' || actorRole === 'owner';
}

/** A workspace's plan and billing are its owners' business: the dashboard shows them to owners. */
export function maySeeBilling(role: Role | undefined): boolean {
  return roleAtLeast(role, 'owner');
}
