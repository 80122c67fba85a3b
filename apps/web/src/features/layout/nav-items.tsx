import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AlarmIcon from '@mui/icons-material/Alarm';
import AudiotrackIcon from '@mui/icons-material/Audiotrack';
import CallIcon from '@mui/icons-material/Call';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import FolderIcon from '@mui/icons-material/Folder';
import ForumIcon from '@mui/icons-material/Forum';
import GroupsIcon from '@mui/icons-material/Groups';
import HistoryIcon from '@mui/icons-material/History';
import ImageIcon from '@mui/icons-material/Image';
import InstagramIcon from '@mui/icons-material/Instagram';
import PeopleIcon from '@mui/icons-material/People';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import QuestionAnswerIcon from '@mui/icons-material/QuestionAnswer';
import SendIcon from '@mui/icons-material/Send';
import SettingsIcon from '@mui/icons-material/Settings';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import SmsIcon from '@mui/icons-material/Sms';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import type { ReactNode } from 'react';

export type NavSection = 'main' | 'admin' | 'tools';

export interface NavItem {
  /** Path of the route (the one the drawer links to). */
  path: string;
  /** i18n key of the page title; the drawer uses the same label. */
  titleKey: string;
  icon: ReactNode;
  section: NavSection;
}

/** Every private page of §2, in drawer order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/', titleKey: 'pages.dashboard', icon: <DashboardIcon />, section: 'main' },
  { path: '/tickets', titleKey: 'pages.tickets', icon: <ForumIcon />, section: 'main' },
  { path: '/connections', titleKey: 'pages.connections', icon: <SyncAltIcon />, section: 'main' },
  { path: '/contacts', titleKey: 'pages.contacts', icon: <ContactPhoneIcon />, section: 'main' },
  { path: '/quickAnswers', titleKey: 'pages.quickAnswers', icon: <QuestionAnswerIcon />, section: 'main' },
  { path: '/users', titleKey: 'pages.users', icon: <PeopleIcon />, section: 'admin' },
  { path: '/queues', titleKey: 'pages.queues', icon: <AccountTreeIcon />, section: 'admin' },
  { path: '/settings', titleKey: 'pages.settings', icon: <SettingsIcon />, section: 'admin' },
  { path: '/ZDG', titleKey: 'pages.bulkText', icon: <SendIcon />, section: 'tools' },
  { path: '/ZDGMedia', titleKey: 'pages.bulkMediaUrl', icon: <ImageIcon />, section: 'tools' },
  { path: '/ZDGMedia2', titleKey: 'pages.bulkMediaPath', icon: <FolderIcon />, section: 'tools' },
  { path: '/ZDGMedia3', titleKey: 'pages.bulkAudio', icon: <AudiotrackIcon />, section: 'tools' },
  { path: '/ZDGGroups', titleKey: 'pages.groups', icon: <GroupsIcon />, section: 'tools' },
  { path: '/ZDGChatbot', titleKey: 'pages.chatbot', icon: <SmartToyIcon />, section: 'tools' },
  { path: '/ZDGAgendamento', titleKey: 'pages.scheduled', icon: <AlarmIcon />, section: 'tools' },
  { path: '/ZDGHistorico', titleKey: 'pages.historyImport', icon: <HistoryIcon />, section: 'tools' },
  { path: '/InstaDirect', titleKey: 'pages.instaDirect', icon: <InstagramIcon />, section: 'tools' },
  { path: '/SMS', titleKey: 'pages.sms', icon: <SmsIcon />, section: 'tools' },
  { path: '/VoiceCall', titleKey: 'pages.voiceCall', icon: <CallIcon />, section: 'tools' },
  { path: '/simulator', titleKey: 'pages.simulator', icon: <PhoneAndroidIcon />, section: 'tools' },
];
