/**
 * Languages a video's `locale` may take (the /languages?filter=texttracks list): ISO 639-1 codes
 * and the regional variants players commonly distinguish.
 */
export const languages: readonly string[] = [
  'af', 'ar', 'az', 'be', 'bg', 'bn', 'bs', 'ca', 'cs', 'cy', 'da', 'de', 'de-AT', 'de-CH', 'el', 'en', 'en-AU', 'en-CA',
  'en-GB', 'en-IE', 'en-IN', 'en-NZ', 'en-US', 'eo', 'es', 'es-419', 'es-ES', 'es-MX', 'et', 'eu', 'fa', 'fi', 'fil', 'fr',
  'fr-CA', 'fr-FR', 'ga', 'gl', 'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ka', 'kk', 'km', 'kn', 'ko',
  'ky', 'lo', 'lt', 'lv', 'mk', 'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'nb', 'ne', 'nl', 'nn', 'no', 'pa', 'pl', 'ps', 'pt',
  'pt-BR', 'pt-PT', 'ro', 'ru', 'si', 'sk', 'sl', 'sq', 'sr', 'sv', 'sw', 'ta', 'te', 'th', 'tl', 'tr', 'uk', 'ur', 'uz',
  'vi', 'xh', 'yi', 'zh', 'zh-CN', 'zh-HK', 'zh-TW', 'zu',
];
