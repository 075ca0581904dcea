import { startApp } from './app/start.tsx';

startApp(document.getElementById('root')!);
