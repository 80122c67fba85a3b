import { AppLayout } from '../features/layout/app-layout';
import { SocketProvider } from '../services/socket';

/**
 * The signed-in part of the app: the live socket and the app bar with its drawer. In its own chunk, loaded after
 * sign-in: the login page needs neither socket.io nor the layout.
 */
export function PrivateLayout() {
  return (
    <SocketProvider>
      <AppLayout />
    </SocketProvider>
  );
}
