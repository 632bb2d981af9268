/** Stylesheets the bundler (Vite) imports for their side effect: no exports. */
declare module '*.css';
