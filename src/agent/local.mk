# the LLM planner (agent/)
