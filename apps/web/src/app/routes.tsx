import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/login-page';
import { AdminRoute, FullPageLoader, PrivateRoute, PublicRoute } from '../features/auth/route-guards';
import { ConnectionsPage } from '../features/connections/connections-page';
import { ContactsPage } from '../features/contacts/contacts-page';
import { SignupPage } from '../features/auth/signup-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { AppLayout } from '../features/layout/app-layout';
import { useServerFeatures } from '../features/layout/use-server-features';
import { QueuesPage } from '../features/queues/queues-page';
import { QuickAnswersPage } from '../features/quick-answers/quick-answers-page';
import { SettingsPage } from '../features/settings/settings-page';
import { SimulatorPage } from '../features/simulator/simulator-page';
import { TicketsPage } from '../features/tickets/tickets-page';
import { UsersPage } from '../features/users/users-page';

/** /simulator exists only while the server runs the simulator (SIMULATOR=on); otherwise it is like an unknown path. */
function SimulatorRoute() {
  const { features, isLoading } = useServerFeatures();
  if (isLoading) return <FullPageLoader />;
  return features.simulator ? <Outlet /> : <Navigate to="/" replace />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicRoute />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
      </Route>
      <Route element={<PrivateRoute />}>
        <Route element={<AppLayout />}>
          <Route index element={<DashboardPage />} />
          <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
          <Route path="/connections" element={<ConnectionsPage />} />
          <Route path="/contacts" element={<ContactsPage />} />
          <Route path="/quickAnswers" element={<QuickAnswersPage />} />
          {/*
            The tool pages of §2 (/ZDG, /ZDGMedia, ... /VoiceCall) are declared here as each lands, together with
            `ready: true` in features/layout/nav-items.tsx; until then their paths fall to the catch-all below.
          */}
          <Route element={<AdminRoute />}>
            <Route path="/users" element={<UsersPage />} />
            {/* Routes match case-insensitively, so /Queues and /Settings land here too. */}
            <Route path="/queues" element={<QueuesPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route element={<SimulatorRoute />}>
              <Route path="/simulator" element={<SimulatorPage />} />
            </Route>
          </Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Route>
    </Routes>
  );
}
