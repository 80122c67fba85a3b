import core from './locales/pt.json';
import { buildTranslation, type Tree } from './translation-tree';

const features = import.meta.glob<{ default: Tree }>('../features/*/locales/pt.json', { eager: true });

export default buildTranslation('pt', core as Tree, features);
