//! The review's token or dollar budget, with a hard stop: every provider the reviewers and the
//! passes use is wrapped in [`Metered`], which refuses a call once the budget is spent. The refusal
//! fails the reviewer with a reason that names the budget, so the verdict says why it is
//! Inconclusive. A call already in flight finishes; no new call starts.

use std::fmt;
use std::sync::{Arc, Mutex};

use thiserror::Error;

use crate::reviewers::model::context::split::BYTES_PER_TOKEN;
use crate::reviewers::model::provider::{
    AroundTurns, BoxFuture, ChatRequest, ChatResponse, Provider, ProviderError, Usage,
    arguments_text,
};

/// Prices per million tokens, for the cost shown next to each reviewer. Unknown → no cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pricing {
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    Tokens(u64),
    Usd(f64),
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Tokens(tokens) => write!(f, "{tokens} tokens"),
            Limit::Usd(usd) => write!(f, "${usd:.2}"),
        }
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum BudgetError {
    #[error(
        "--budget {0:?}: give a positive number of tokens (`200000`, `200k`, `1.5m`) or dollars \
         (`$1.50`, `1.5usd`)"
    )]
    Unreadable(String),
    #[error(
        "--budget {0} is in dollars, but no prices are configured: set [models] \
         price_input_per_mtok and price_output_per_mtok, or give the budget in tokens"
    )]
    NoPrices(String),
    /// The limit is reached: no further model calls are made this review.
    #[error("the review's budget of {limit} is spent ({spent}); no further model calls are made")]
    Spent { limit: String, spent: String },
}

impl Limit {
    /// `200000`, `200k`, `1.5m`, `200000 tokens` are tokens; `$1.50`, `1.5usd`, `1.5 USD` dollars.
    pub fn parse(text: &str) -> Result<Limit, BudgetError> {
        let bad = || BudgetError::Unreadable(text.to_string());
        let lower = text.trim().to_ascii_lowercase().replace(['_', ','], "");
        if let Some(amount) = lower
            .strip_prefix('$')
            .or_else(|| lower.strip_suffix("usd"))
        {
            let usd: f64 = amount.trim().parse().map_err(|_| bad())?;
            return (usd.is_finite() && usd > 0.0)
                .then_some(Limit::Usd(usd))
                .ok_or_else(bad);
        }
        let number = lower
            .strip_suffix("tokens")
            .or_else(|| lower.strip_suffix("tok"))
            .unwrap_or(&lower)
            .trim();
        let (digits, scale) = match number.chars().last() {
            Some('k') => (&number[..number.len() - 1], 1_000.0),
            Some('m') => (&number[..number.len() - 1], 1_000_000.0),
            _ => (number, 1.0),
        };
        // A bare decimal could be meant as dollars: refuse to guess.
        if scale == 1.0 && digits.contains('.') {
            return Err(bad());
        }
        let value: f64 = digits.trim().parse().map_err(|_| bad())?;
        let tokens = value * scale;
        if !tokens.is_finite() || tokens < 1.0 {
            return Err(bad());
        }
        Ok(Limit::Tokens(tokens as u64))
    }
}

/// What the review has spent, shared by every metered provider.
#[derive(Debug)]
pub struct Budget {
    limit: Option<Limit>,
    pricing: Option<Pricing>,
    spent: Mutex<Usage>,
}

impl Budget {
    /// `limit` in dollars needs `pricing`.
    pub fn new(limit: Option<Limit>, pricing: Option<Pricing>) -> Result<Budget, BudgetError> {
        if let (Some(Limit::Usd(usd)), None) = (limit, pricing) {
            return Err(BudgetError::NoPrices(format!("${usd:.2}")));
        }
        Ok(Budget {
            limit,
            pricing,
            spent: Mutex::new(Usage::default()),
        })
    }

    pub fn unlimited() -> Budget {
        Budget {
            limit: None,
            pricing: None,
            spent: Mutex::new(Usage::default()),
        }
    }

    pub fn limit(&self) -> Option<Limit> {
        self.limit
    }

    pub fn spent(&self) -> Usage {
        *self.spent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Dollars spent, when prices are known.
    pub fn cost_usd(&self) -> Option<f64> {
        let spent = self.spent();
        self.pricing.map(|p| {
            (spent.input_tokens as f64 * p.input_usd_per_mtok
                + spent.output_tokens as f64 * p.output_usd_per_mtok)
                / 1_000_000.0
        })
    }

    /// `Err(BudgetError::Spent)` once the budget is spent.
    pub fn check(&self) -> Result<(), BudgetError> {
        let spent = self.spent();
        let over = match self.limit {
            None => false,
            Some(Limit::Tokens(tokens)) => spent.total() >= tokens,
            Some(Limit::Usd(usd)) => self.cost_usd().is_some_and(|cost| cost >= usd),
        };
        if over {
            Err(BudgetError::Spent {
                limit: self.limit.map(|l| l.to_string()).unwrap_or_default(),
                spent: self.spent_text(),
            })
        } else {
            Ok(())
        }
    }

    /// "12400 tokens" or "12400 tokens, $0.03".
    pub fn spent_text(&self) -> String {
        let spent = self.spent();
        match self.cost_usd() {
            Some(cost) => format!("{} tokens used, ${cost:.4}", spent.total()),
            None => format!("{} tokens used", spent.total()),
        }
    }

    fn add(&self, usage: Usage) {
        let mut spent = self.spent.lock().unwrap_or_else(|p| p.into_inner());
        spent.add(usage);
    }
}

/// What a turn cost: the server's counts, or an estimate from the bytes sent and received where
/// it reported none. A server that leaves `usage` out (many local ones do) must not make every
/// call free: the budget and the reviewers' token bounds would never stop anything.
pub fn counted(request: &ChatRequest, response: &ChatResponse) -> Usage {
    let mut usage = response.usage;
    if usage.input_tokens == 0 {
        let sent = serde_json::to_string(request).map_or(0, |text| text.len());
        usage.input_tokens = tokens_of(sent);
    }
    if usage.output_tokens == 0 {
        let written = response.text.as_deref().map_or(0, str::len)
            + response
                .tool_calls
                .iter()
                .map(|call| call.name.len() + arguments_text(&call.arguments).len())
                .sum::<usize>();
        usage.output_tokens = tokens_of(written);
    }
    usage
}

fn tokens_of(bytes: usize) -> u64 {
    u64::try_from(bytes.div_ceil(BYTES_PER_TOKEN)).unwrap_or(u64::MAX)
}

/// A provider whose calls are counted against the review's [`Budget`].
pub struct Metered {
    inner: Arc<dyn Provider>,
    budget: Arc<Budget>,
}

impl Metered {
    pub fn wrap(inner: Arc<dyn Provider>, budget: Arc<Budget>) -> Arc<dyn Provider> {
        Arc::new(Metered { inner, budget })
    }
}

impl AroundTurns for Metered {
    fn inner(&self) -> &dyn Provider {
        &*self.inner
    }

    fn turn<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        Box::pin(async move {
            self.budget
                .check()
                .map_err(|spent| ProviderError::config("budget", spent.to_string()))?;
            let mut response = self.inner.chat(request).await?;
            response.usage = counted(request, &response);
            self.budget.add(response.usage);
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_as_tokens_or_dollars() {
        assert_eq!(Limit::parse("200000"), Ok(Limit::Tokens(200_000)));
        assert_eq!(Limit::parse("200k"), Ok(Limit::Tokens(200_000)));
        assert_eq!(Limit::parse("1.5M"), Ok(Limit::Tokens(1_500_000)));
        assert_eq!(Limit::parse("5000 tokens"), Ok(Limit::Tokens(5000)));
        assert_eq!(Limit::parse("$1.50"), Ok(Limit::Usd(1.5)));
        assert_eq!(Limit::parse("2usd"), Ok(Limit::Usd(2.0)));
        for bad in ["", "1.5", "-3", "$-1", "lots", "0"] {
            assert!(Limit::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_dollar_budget_needs_prices() {
        assert!(matches!(
            Budget::new(Some(Limit::Usd(1.0)), None),
            Err(BudgetError::NoPrices(_))
        ));
    }

    #[test]
    fn the_budget_stops_once_spent() {
        let budget = Budget::new(Some(Limit::Tokens(100)), None).unwrap();
        assert!(budget.check().is_ok());
        budget.add(Usage {
            input_tokens: 80,
            output_tokens: 30,
        });
        let reason = budget.check().unwrap_err().to_string();
        assert!(reason.contains("budget of 100 tokens"), "{reason}");
        assert!(reason.contains("110 tokens used"), "{reason}");
    }

    #[test]
    fn a_turn_without_usage_is_counted_from_its_bytes() {
        let request = ChatRequest {
            reviewer: "engineer".into(),
            system: "s".repeat(4000),
            messages: Vec::new(),
            tools: Vec::new(),
            output: None,
            max_output_tokens: 100,
            retries: Default::default(),
        };
        let mut response = ChatResponse {
            text: Some("x".repeat(400)),
            tool_calls: Vec::new(),
            finish: crate::reviewers::model::provider::FinishReason::Stop,
            usage: Usage::default(),
            malformed: Vec::new(),
            unread: Vec::new(),
        };
        let estimated = counted(&request, &response);
        assert!(estimated.input_tokens >= 1000, "{estimated:?}");
        assert_eq!(estimated.output_tokens, 100);
        // Reported counts are kept as the server sent them.
        response.usage = Usage {
            input_tokens: 7,
            output_tokens: 3,
        };
        assert_eq!(counted(&request, &response), response.usage);
    }
}
