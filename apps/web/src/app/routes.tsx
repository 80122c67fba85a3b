import { Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/login-page';
import { AdminRoute, PrivateRoute, PublicRoute } from '../features/auth/route-guards';
import { ConnectionsPage } from '../features/connections/connections-page';
import { ContactsPage } from '../features/contacts/contacts-page';
import { SignupPage } from '../features/auth/signup-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { AppLayout } from '../features/layout/app-layout';
import { ComingSoonPage } from '../features/pages/coming-soon-page';
import { QueuesPage } from '../features/queues/queues-page';
import { QuickAnswersPage } from '../features/quick-answers/quick-answers-page';
import { SettingsPage } from '../features/settings/settings-page';
import { SimulatorPage } from '../features/simulator/simulator-page';
import { TicketsPage } from '../features/tickets/tickets-page';
import { UsersPage } from '../features/users/users-page';

/** Pages of §2 still to be built: path and title key. */
const PLACEHOLDERS: [string, string][] = [
  ['/ZDG', 'pages.bulkText'],
  ['/ZDGMedia', 'pages.bulkMediaUrl'],
  ['/ZDGMedia2', 'pages.bulkMediaPath'],
  ['/ZDGMedia3', 'pages.bulkAudio'],
  ['/ZDGGroups', 'pages.groups'],
  ['/ZDGChatbot', 'pages.chatbot'],
  ['/ZDGAgendamento', 'pages.scheduled'],
  ['/ZDGHistorico', 'pages.historyImport'],
  ['/InstaDirect', 'pages.instaDirect'],
  ['/SMS', 'pages.sms'],
  ['/VoiceCall', 'pages.voiceCall'],
];

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
          {PLACEHOLDERS.map(([path, titleKey]) => (
            <Route key={path} path={path} element={<ComingSoonPage key={path} titleKey={titleKey} />} />
          ))}
          <Route element={<AdminRoute />}>
            <Route path="/users" element={<UsersPage />} />
            {/* Routes match case-insensitively, so /Queues and /Settings land here too. */}
            <Route path="/queues" element={<QueuesPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/simulator" element={<SimulatorPage />} />
          </Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Route>
    </Routes>
  );
}
