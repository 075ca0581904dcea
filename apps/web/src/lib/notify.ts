import { notifications } from '@mantine/notifications';
import { errorMessage } from './api.ts';

/** Spec: toasts last 3500 ms by default. */
export const TOAST_MS = 3500;

type ToastType = 'info' | 'success' | 'error';

const COLORS: Record<ToastType, string> = { info: 'blue', success: 'teal', error: 'red' };

export function toast(msg: string, type: ToastType = 'info', duration = TOAST_MS) {
  notifications.show({
    message: msg,
    color: COLORS[type],
    autoClose: duration,
    // Errors interrupt a screen reader (role alert); the rest is announced politely.
    role: type === 'error' ? 'alert' : 'status',
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Cerrar notificación' },
  });
}

export const notify = {
  info: (msg: string) => toast(msg, 'info'),
  success: (msg: string) => toast(msg, 'success'),
  error: (err: unknown, fallback?: string) => toast(typeof err === 'string' ? err : errorMessage(err, fallback), 'error'),
};
