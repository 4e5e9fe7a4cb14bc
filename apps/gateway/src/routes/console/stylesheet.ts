import { readAsset } from '../../assets.ts';

/** The console's one stylesheet, served at `stylesheetPath`: the pages' policy allows styles from there only. */
export const stylesheet = readAsset('console.css');
export const stylesheetPath = '/console.css';
