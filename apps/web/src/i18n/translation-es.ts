import core from './locales/es.json';
import { buildTranslation, type Tree } from './translation-tree';

const features = import.meta.glob<{ default: Tree }>('../features/*/locales/es.json', { eager: true });

export default buildTranslation('es', core as Tree, features);
