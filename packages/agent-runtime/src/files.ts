/** A bundle's files read from a folder; they live in `@svc/domain/bundle-files`, which needs nothing but Node. */
export { BinaryFileError, bundlePaths, readBundleFiles } from '@svc/domain/bundle-files';
