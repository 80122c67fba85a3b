import core from './locales/en.json';
import { buildTranslation, type Tree } from './translation-tree';

const features = import.meta.glob<{ default: Tree }>('../features/*/locales/en.json', { eager: true });

export default buildTranslation('en', core as Tree, features);
