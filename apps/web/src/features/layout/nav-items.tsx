import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AlarmIcon from '@mui/icons-material/Alarm';
import AssessmentIcon from '@mui/icons-material/Assessment';
import AudiotrackIcon from '@mui/icons-material/Audiotrack';
import CallIcon from '@mui/icons-material/Call';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import FolderIcon from '@mui/icons-material/Folder';
import ForumIcon from '@mui/icons-material/Forum';
import GroupsIcon from '@mui/icons-material/Groups';
import HistoryEduIcon from '@mui/icons-material/HistoryEdu';
import HistoryIcon from '@mui/icons-material/History';
import ImageIcon from '@mui/icons-material/Image';
import LabelIcon from '@mui/icons-material/Label';
import InstagramIcon from '@mui/icons-material/Instagram';
import PeopleIcon from '@mui/icons-material/People';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import QuestionAnswerIcon from '@mui/icons-material/QuestionAnswer';
import SendIcon from '@mui/icons-material/Send';
import SettingsIcon from '@mui/icons-material/Settings';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import SmsIcon from '@mui/icons-material/Sms';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import WebhookIcon from '@mui/icons-material/Webhook';
import type { AttendantTool } from '@wadesk/contracts';
import type { ReactNode } from 'react';

export type NavSection = 'main' | 'admin' | 'tools';

/** Who sees an item beyond the signed-in user: admins only, or admins while the server runs the simulator. */
export type NavAudience = 'everyone' | 'admin' | 'simulator';

export interface NavItem {
  /** Path of the route (the one the drawer links to). */
  path: string;
  /** i18n key of the page title; the drawer uses the same label. */
  titleKey: string;
  icon: ReactNode;
  section: NavSection;
  /**
   * The page works. A tool whose issue has not landed yet is `false`: the drawer hides it and its route is not
   * declared (the catch-all sends it to /). When its page lands, set `true` here and add its route in routes.tsx.
   */
  ready: boolean;
  audience?: NavAudience;
  /** The tool of the setting attendantTools the page belongs to: attendants see it while the setting lists it. */
  tool?: AttendantTool;
}

/** Every private page of §2, in drawer order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/', titleKey: 'pages.dashboard', icon: <DashboardIcon />, section: 'main', ready: true },
  { path: '/tickets', titleKey: 'pages.tickets', icon: <ForumIcon />, section: 'main', ready: true },
  { path: '/connections', titleKey: 'pages.connections', icon: <SyncAltIcon />, section: 'main', ready: true },
  { path: '/contacts', titleKey: 'pages.contacts', icon: <ContactPhoneIcon />, section: 'main', ready: true },
  { path: '/quickAnswers', titleKey: 'pages.quickAnswers', icon: <QuestionAnswerIcon />, section: 'main', ready: true },
  // Issue 36 §6: everyone; an attendant sees their own line.
  { path: '/reports', titleKey: 'pages.reports', icon: <AssessmentIcon />, section: 'main', ready: true },
  { path: '/users', titleKey: 'pages.users', icon: <PeopleIcon />, section: 'admin', ready: true, audience: 'admin' },
  { path: '/queues', titleKey: 'pages.queues', icon: <AccountTreeIcon />, section: 'admin', ready: true, audience: 'admin' },
  { path: '/labels', titleKey: 'pages.labels', icon: <LabelIcon />, section: 'admin', ready: true, audience: 'admin' },
  { path: '/webhooks', titleKey: 'pages.webhooks', icon: <WebhookIcon />, section: 'admin', ready: true, audience: 'admin' },
  // Issue 37 §2: who did what.
  { path: '/audit', titleKey: 'pages.audit', icon: <HistoryEduIcon />, section: 'admin', ready: true, audience: 'admin' },
  { path: '/settings', titleKey: 'pages.settings', icon: <SettingsIcon />, section: 'admin', ready: true, audience: 'admin' },
  // The tools: each becomes `ready: true` with its issue (bulk send, groups, chatbot, schedules, history, ...).
  { path: '/ZDG', titleKey: 'pages.bulkText', icon: <SendIcon />, section: 'tools', ready: true, tool: 'bulk' },
  { path: '/ZDGMedia', titleKey: 'pages.bulkMediaUrl', icon: <ImageIcon />, section: 'tools', ready: true, tool: 'bulk' },
  { path: '/ZDGMedia2', titleKey: 'pages.bulkMediaPath', icon: <FolderIcon />, section: 'tools', ready: true, tool: 'bulk' },
  { path: '/ZDGMedia3', titleKey: 'pages.bulkAudio', icon: <AudiotrackIcon />, section: 'tools', ready: true, tool: 'bulk' },
  { path: '/ZDGGroups', titleKey: 'pages.groups', icon: <GroupsIcon />, section: 'tools', ready: true, tool: 'groups' },
  { path: '/ZDGChatbot', titleKey: 'pages.chatbot', icon: <SmartToyIcon />, section: 'tools', ready: true, tool: 'chatbot' },
  { path: '/ZDGAgendamento', titleKey: 'pages.scheduled', icon: <AlarmIcon />, section: 'tools', ready: true, tool: 'schedules' },
  { path: '/ZDGHistorico', titleKey: 'pages.historyImport', icon: <HistoryIcon />, section: 'tools', ready: true, tool: 'history' },
  { path: '/InstaDirect', titleKey: 'pages.instaDirect', icon: <InstagramIcon />, section: 'tools', ready: true, tool: 'instagram' },
  { path: '/SMS', titleKey: 'pages.sms', icon: <SmsIcon />, section: 'tools', ready: true, tool: 'sms' },
  { path: '/VoiceCall', titleKey: 'pages.voiceCall', icon: <CallIcon />, section: 'tools', ready: true, tool: 'voice' },
  // The simulator's routes are admin-only and exist only when the server runs with SIMULATOR=on.
  { path: '/simulator', titleKey: 'pages.simulator', icon: <PhoneAndroidIcon />, section: 'tools', ready: true, audience: 'simulator' },
];

/** What decides whether a signed-in user sees an item. */
export interface NavViewer {
  admin: boolean;
  /** The server runs the simulator (GET /api/health); false while unknown. */
  simulator: boolean;
  /** The tools open to attendants (the setting attendantTools); empty while unknown. */
  tools: ReadonlySet<AttendantTool>;
}

/** The drawer items this viewer may open: ready pages their role, the setting attendantTools (and the server) allow. */
export function visibleNavItems(viewer: NavViewer, items: readonly NavItem[] = NAV_ITEMS): NavItem[] {
  return items.filter((item) => {
    if (!item.ready) return false;
    if (item.tool && !viewer.admin && !viewer.tools.has(item.tool)) return false;
    switch (item.audience ?? 'everyone') {
      case 'everyone':
        return true;
      case 'admin':
        return viewer.admin;
      case 'simulator':
        return viewer.admin && viewer.simulator;
    }
  });
}
