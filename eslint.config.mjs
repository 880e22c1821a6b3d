// ESLint: typescript-eslint's recommended rules, Effect's dprint formatting rule
// (the settings Effect's own repository uses), and the project's idioms.
import * as effectEslint from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: ["dist/**", "node_modules/**", "bench-results/**", "test/workbench/screenshots/**", "**/*.md", "**/*.cjs"]
  },
  ...tseslint.configs.recommended,
  ...effectEslint.configs.dprint,
  {
    rules: {
      "object-shorthand": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='push'] > SpreadElement.arguments",
          message: "Do not use spread arguments in Array.push"
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: "Randomness comes from the explicit RNG (src/kernel/Rng.ts), never Math.random"
        }
      ],
      "require-yield": "off",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@effect/dprint": [
        "error",
        {
          config: {
            indentWidth: 2,
            lineWidth: 120,
            semiColons: "asi",
            quoteStyle: "alwaysDouble",
            trailingCommas: "never",
            operatorPosition: "maintain",
            "arrowFunction.useParentheses": "force"
          }
        }
      ]
    }
  },
  {
    files: ["src/**/*.ts"],
    rules: {
      "no-console": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "ThrowStatement",
          message: "Library code fails through the Effect error channel or Either, never by throwing"
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: "Randomness comes from the explicit RNG (src/kernel/Rng.ts), never Math.random"
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: "No clock in library code: results must not depend on time"
        }
      ]
    }
  },
  {
    // fast-check's contract: a property fails by throwing, so the fuzz properties may throw.
    files: ["src/testing/**/*.ts", "src/services/Fuzz.ts"],
    rules: { "no-restricted-syntax": "off" }
  }
)
