import { Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { AdminRoute, FullPageLoader, PrivateRoute, PublicRoute } from '../features/auth/route-guards';
import { useServerFeatures } from '../features/layout/use-server-features';
import { ToolRoute } from '../features/settings/tool-route';
import { lazyPage, whenIdle, type LazyPage } from './lazy-page';

// Every page is its own chunk (and the signed-in layout with the socket another): the first load carries the
// shell and the page on screen only.
const LoginPage = lazyPage(() => import('../features/auth/login-page').then((m) => m.LoginPage));
const SignupPage = lazyPage(() => import('../features/auth/signup-page').then((m) => m.SignupPage));
const PrivateLayout = lazyPage(() => import('./private-layout').then((m) => m.PrivateLayout));
const DashboardPage = lazyPage(() => import('../features/dashboard/dashboard-page').then((m) => m.DashboardPage));
const ReportsPage = lazyPage(() => import('../features/reports/reports-page').then((m) => m.ReportsPage));
const TicketsPage = lazyPage(() => import('../features/tickets/tickets-page').then((m) => m.TicketsPage));
const ConnectionsPage = lazyPage(() => import('../features/connections/connections-page').then((m) => m.ConnectionsPage));
const ContactsPage = lazyPage(() => import('../features/contacts/contacts-page').then((m) => m.ContactsPage));
const QuickAnswersPage = lazyPage(() => import('../features/quick-answers/quick-answers-page').then((m) => m.QuickAnswersPage));
const UsersPage = lazyPage(() => import('../features/users/users-page').then((m) => m.UsersPage));
const QueuesPage = lazyPage(() => import('../features/queues/queues-page').then((m) => m.QueuesPage));
const LabelsPage = lazyPage(() => import('../features/labels/labels-page').then((m) => m.LabelsPage));
const SettingsPage = lazyPage(() => import('../features/settings/settings-page').then((m) => m.SettingsPage));
const WebhooksPage = lazyPage(() => import('../features/webhooks/webhooks-page').then((m) => m.WebhooksPage));
const AuditPage = lazyPage(() => import('../features/audit/audit-page').then((m) => m.AuditPage));
const campaignsModule = () => import('../features/campaigns/campaigns-page');
const BulkTextPage = lazyPage(() => campaignsModule().then((m) => m.BulkTextPage));
const BulkMediaUrlPage = lazyPage(() => campaignsModule().then((m) => m.BulkMediaUrlPage));
const BulkMediaPathPage = lazyPage(() => campaignsModule().then((m) => m.BulkMediaPathPage));
const BulkAudioPage = lazyPage(() => campaignsModule().then((m) => m.BulkAudioPage));
const GroupsPage = lazyPage(() => import('../features/groups/groups-page').then((m) => m.GroupsPage));
const ChatbotPage = lazyPage(() => import('../features/chatbot/chatbot-page').then((m) => m.ChatbotPage));
const SchedulesPage = lazyPage(() => import('../features/schedules/schedules-page').then((m) => m.SchedulesPage));
const HistoryPage = lazyPage(() => import('../features/history/history-page').then((m) => m.HistoryPage));
const outreachModule = () => import('../features/outreach/outreach-page');
const SmsPage = lazyPage(() => outreachModule().then((m) => m.SmsPage));
const VoiceCallPage = lazyPage(() => outreachModule().then((m) => m.VoiceCallPage));
const InstaDirectPage = lazyPage(() => outreachModule().then((m) => m.InstaDirectPage));
const SimulatorPage = lazyPage(() => import('../features/simulator/simulator-page').then((m) => m.SimulatorPage));

/** The page of each first path segment (routes match case-insensitively). */
const PAGE_OF_PATH: Record<string, LazyPage> = {
  '': DashboardPage,
  tickets: TicketsPage,
  connections: ConnectionsPage,
  contacts: ContactsPage,
  quickanswers: QuickAnswersPage,
  reports: ReportsPage,
  users: UsersPage,
  queues: QueuesPage,
  labels: LabelsPage,
  settings: SettingsPage,
  webhooks: WebhooksPage,
  audit: AuditPage,
  zdg: BulkTextPage,
  zdgmedia: BulkMediaUrlPage,
  zdgmedia2: BulkMediaPathPage,
  zdgmedia3: BulkAudioPage,
  zdggroups: GroupsPage,
  zdgagendamento: SchedulesPage,
  zdghistorico: HistoryPage,
  zdgchatbot: ChatbotPage,
  simulator: SimulatorPage,
  sms: SmsPage,
  voicecall: VoiceCallPage,
  instadirect: InstaDirectPage,
};

/**
 * At start-up, loads the code of the page in the address bar while the session is being checked, rather than
 * after: both are needed before the page can show. A signed-in page waits for the browser to be idle (still during
 * the check): a signed-out visitor is sent to the login page, which should not wait for a page it will not show.
 */
export function preloadPageOf(pathname: string): void {
  const segment = pathname.split('/')[1]?.toLowerCase() ?? '';
  if (segment === 'login' || segment === 'signup') {
    void (segment === 'login' ? LoginPage : SignupPage).preload().catch(() => undefined);
    return;
  }
  const page = PAGE_OF_PATH[segment];
  if (!page) return;
  whenIdle(() => {
    void PrivateLayout.preload().catch(() => undefined);
    void page.preload().catch(() => undefined);
  });
}

/** Once the screen is usable and the browser idle, loads the pages likely to come next. */
function WarmUp({ pages }: { pages: LazyPage[] }) {
  useEffect(() => whenIdle(() => pages.forEach((p) => void p.preload().catch(() => undefined))), [pages]);
  return null;
}
const AFTER_LOGIN = [PrivateLayout, TicketsPage];
const AFTER_LAYOUT = [TicketsPage];

/** While a page's code loads inside the layout: the app bar and drawer stay, a spinner fills the content. */
function PageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }} role="status" aria-label={t('common.loading')}>
      <CircularProgress />
    </Box>
  );
}

function PublicPage({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<FullPageLoader />}>
      {children}
      <WarmUp pages={AFTER_LOGIN} />
    </Suspense>
  );
}

function PrivatePage({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

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
        <Route path="/login" element={<PublicPage><LoginPage /></PublicPage>} />
        <Route path="/signup" element={<PublicPage><SignupPage /></PublicPage>} />
      </Route>
      <Route element={<PrivateRoute />}>
        <Route
          element={
            <Suspense fallback={<FullPageLoader />}>
              <PrivateLayout />
              <WarmUp pages={AFTER_LAYOUT} />
            </Suspense>
          }
        >
          <Route index element={<PrivatePage><DashboardPage /></PrivatePage>} />
          <Route path="/tickets/:ticketId?" element={<PrivatePage><TicketsPage /></PrivatePage>} />
          <Route path="/connections" element={<PrivatePage><ConnectionsPage /></PrivatePage>} />
          <Route path="/contacts" element={<PrivatePage><ContactsPage /></PrivatePage>} />
          <Route path="/quickAnswers" element={<PrivatePage><QuickAnswersPage /></PrivatePage>} />
          {/* Reports (issue 36 §6): everyone; an attendant's page shows their own line (the server decides). */}
          <Route path="/reports" element={<PrivatePage><ReportsPage /></PrivatePage>} />
          {/*
            The tool pages of §2 (/ZDG, /ZDGMedia, ... /VoiceCall): any signed-in user's (§6), as far as the admin
            setting attendantTools opens each tool to attendants (issue 32; the server refuses the others too).
          */}
          <Route element={<ToolRoute tool="bulk" />}>
            <Route path="/ZDG" element={<PrivatePage><BulkTextPage /></PrivatePage>} />
            <Route path="/ZDGMedia" element={<PrivatePage><BulkMediaUrlPage /></PrivatePage>} />
            <Route path="/ZDGMedia2" element={<PrivatePage><BulkMediaPathPage /></PrivatePage>} />
            <Route path="/ZDGMedia3" element={<PrivatePage><BulkAudioPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="schedules" />}>
            <Route path="/ZDGAgendamento" element={<PrivatePage><SchedulesPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="chatbot" />}>
            <Route path="/ZDGChatbot" element={<PrivatePage><ChatbotPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="groups" />}>
            <Route path="/ZDGGroups" element={<PrivatePage><GroupsPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="history" />}>
            <Route path="/ZDGHistorico" element={<PrivatePage><HistoryPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="sms" />}>
            <Route path="/SMS" element={<PrivatePage><SmsPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="voice" />}>
            <Route path="/VoiceCall" element={<PrivatePage><VoiceCallPage /></PrivatePage>} />
          </Route>
          <Route element={<ToolRoute tool="instagram" />}>
            <Route path="/InstaDirect" element={<PrivatePage><InstaDirectPage /></PrivatePage>} />
          </Route>
          <Route element={<AdminRoute />}>
            <Route path="/users" element={<PrivatePage><UsersPage /></PrivatePage>} />
            {/* Routes match case-insensitively, so /Queues and /Settings land here too. */}
            <Route path="/queues" element={<PrivatePage><QueuesPage /></PrivatePage>} />
            <Route path="/labels" element={<PrivatePage><LabelsPage /></PrivatePage>} />
            <Route path="/settings" element={<PrivatePage><SettingsPage /></PrivatePage>} />
            <Route path="/webhooks" element={<PrivatePage><WebhooksPage /></PrivatePage>} />
            <Route path="/audit" element={<PrivatePage><AuditPage /></PrivatePage>} />
            <Route element={<SimulatorRoute />}>
              <Route path="/simulator" element={<PrivatePage><SimulatorPage /></PrivatePage>} />
            </Route>
          </Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Route>
    </Routes>
  );
}
