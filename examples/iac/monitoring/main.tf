# The demo "Monitoring" stack: alarms for the payments service, as plain data.
variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "alarm_threshold_percent" {
  type    = number
  default = 80
}

locals {
  alarms = {
    cpu    = "CPUUtilization"
    memory = "MemoryUtilization"
    errors = "HTTPCode_Target_5XX_Count"
  }
}

resource "terraform_data" "alarm" {
  for_each = local.alarms
  input = {
    metric    = each.value
    threshold = var.alarm_threshold_percent
    region    = var.region
  }
}

resource "terraform_data" "dashboard" {
  input = {
    name    = "payments-${var.region}"
    widgets = keys(local.alarms)
  }
}

output "region" {
  value = var.region
}

output "alarms" {
  value = { for name, alarm in terraform_data.alarm : name => alarm.output.metric }
}

variable "on_call_route" {
  type        = string
  default     = null
  description = "The paging route the alarms notify; none until one is added"
}

resource "terraform_data" "on_call_route" {
  count = var.on_call_route == null ? 0 : 1
  input = {
    route  = var.on_call_route
    alarms = keys(local.alarms)
  }
}
