import { readAsset } from '../../assets.ts';

/** The console's one stylesheet, served at `stylesheetPath`: the pages' policy allows styles from there only. */
export const stylesheet = readAsset('console.css');
export const stylesheetPath = '/console.css';

/** The console's icon, linked from every page (so no browser asks for a /favicon.ico that is not there). */
export const favicon = readAsset('favicon.svg');
export const faviconPath = '/favicon.svg';
