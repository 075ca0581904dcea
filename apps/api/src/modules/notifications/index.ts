/** Notifications (issue 18): the outbox written with shipment events (or by a module, as the estado de cuenta), its worker and its admin routes. */
export { enqueueNotifications, mayHaveAddressees, type AnnouncedEvent, type KnownShipment } from './outbox.ts';
export { deliverDueNotifications, startNotificationWorker } from './worker.ts';
export { default as notificationRoutes } from './routes.ts';
export { enqueueMessage, type DirectMessage, type QueuedMessage } from './messages.ts';
