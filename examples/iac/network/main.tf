# The demo "Network" stack: a VPC layout, as plain data.
variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "cidr_block" {
  type    = string
  default = "10.20.0.0/16"
}

resource "terraform_data" "vpc" {
  input = {
    cidr_block = var.cidr_block
    region     = var.region
  }
}

resource "terraform_data" "subnet" {
  count = 3
  input = {
    vpc        = terraform_data.vpc.id
    cidr_block = cidrsubnet(var.cidr_block, 4, count.index)
    zone       = "${var.region}${["a", "b", "c"][count.index]}"
  }
}

output "vpc_id" {
  value = terraform_data.vpc.id
}

output "subnets" {
  value = [for subnet in terraform_data.subnet : subnet.output.cidr_block]
}
